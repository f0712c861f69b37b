/** Outbox — drafts (/correspondence/outbox/draft). */
import { DraftsListScreen } from '../documents/DraftsListScreen';

/** The route's screen. */
export function Component() {
  return <DraftsListScreen family="out" />;
}
