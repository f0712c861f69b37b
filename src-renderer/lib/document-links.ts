/**
 * Which screen opens a document, for links from anywhere (a notification, a read in the audit, a finding
 * of the integrity check): the list its state files it under, else the first other screen of the document
 * the user's pages allow — a role may lack the first, and search opens any document the user may see.
 */
import { DIRECTIONS, type Direction } from '../../src-shared/api/correspondence';
import { DIRECTION_PAGES, PAGES } from '../../src-shared/pages';
import { findNode, type PageNode } from '../app/guard';

/** What a link needs to know of a document. */
export interface LinkedDocument {
  id: number;
  direction: string;
  state: string;
}

/**
 * The path of the first screen `mayView` allows that opens `doc`: the pages of `first` (a caller's own
 * preference, such as the approver's list for their turn), then the one its state files it under, then
 * the document's other screens and search; null when the user may open none.
 */
export function documentScreenPath(
  doc: LinkedDocument,
  mayView: (page: string) => boolean,
  first: readonly (string | null)[] = [],
): string | null {
  if (!(DIRECTIONS as readonly string[]).includes(doc.direction)) return null;
  const pages = DIRECTION_PAGES[doc.direction as Direction];
  const byState =
    doc.state === 'draft'
      ? pages.drafts
      : doc.state === 'registered' || doc.state === 'approved'
        ? pages.list
        : pages.awaitingApproval;
  const candidates = [
    ...first,
    byState,
    pages.list,
    pages.awaitingApproval,
    pages.requiringApproval,
    PAGES.incomingTasks,
    PAGES.followUps,
    PAGES.search,
  ];
  const page = candidates.find((p): p is string => p !== null && mayView(p));
  return page ? `${page}/${doc.id}` : null;
}

/** `mayView` of the signed-in user's page tree. */
export function mayViewIn(sections: readonly PageNode[] | null): (page: string) => boolean {
  return (page) => findNode(sections, page)?.permissions.includes('view') ?? false;
}
