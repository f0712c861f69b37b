/** Inbox: incoming correspondence (placeholder until its issue lands: the page-tree title and its empty state). */
import { PlaceholderPage } from '../../common/PlaceholderPage';

export function Component() {
  return <PlaceholderPage empty="noInbox" />;
}
