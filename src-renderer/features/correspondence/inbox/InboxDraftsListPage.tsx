/** Inbox — drafts (/correspondence/inbox/draft): the shared drafts list, incoming family. */
import { DraftsListScreen } from '../documents/DraftsListScreen';

/** The route's screen. */
export function Component() {
  return <DraftsListScreen family="in" />;
}
