/** Memos: awaiting approval — one document (placeholder until its issue lands: the page-tree title and its empty state). */
import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function Component() {
  return <PlaceholderPage empty="noDocuments" detail />;
}
