/**
 * What the correspondence services share: errors, the caller's scope, reading a visible document, and who
 * holds or leads what.
 */
import { dayIn } from '../../clock';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem, type FieldMessage } from '../../http/problem';
import type { Tx } from '../auth/queries';
import * as q from './queries';
import { scopeOf, type Scope } from './visibility';
import { underHold } from '../../db/records';
import { DIRECTION_PAGES } from '../../../src-shared/pages';
import type { Direction } from '../../../src-shared/api/correspondence';
import type { Permission } from '../../../src-shared/permissions';

export const notFound = () => new HttpProblem('notFound');
export const rule = (key: string, fields?: Record<string, FieldMessage[]>) =>
  new HttpProblem('unprocessable', {
    detailKey: `correspondence.${key}`,
    code: `correspondence.${key}`,
    ...(fields ? { fields } : {}),
  });
export const badField = (field: string, key = 'validation.choice') =>
  new HttpProblem('badRequest', { fields: { [field]: [{ key }] } });

/** A closed (or disposed of) file takes no new documents (records management, docs/records.md). */
export const fileClosed = () =>
  new HttpProblem('unprocessable', {
    detailKey: 'records.fileClosed',
    code: 'records.fileClosed',
    fields: { fileId: [{ key: 'records.fileClosed' }] },
  });

/** Refuses to delete what a legal hold in force covers (the document itself, or its file): 409. */
export async function refuseUnderHold(db: Tx, documentId: number): Promise<void> {
  if (await underHold(db, documentId))
    throw new HttpProblem('conflict', { detailKey: 'records.underHold', code: 'records.underHold' });
}

/**
 * What each action on a document needs, as (page of the document's direction, permission) pairs: any one
 * of them suffices. The page follows the document's direction (DIRECTION_PAGES), so a clerk with outbox
 * rights only acts on outgoing documents, and an inbox right never reaches an outgoing one.
 */
export type DocumentAction =
  'create' | 'editDraft' | 'deleteDraft' | 'editFiled' | 'distribute' | 'task' | 'decide' | 'dispatch';

export function pagesFor(direction: string, action: DocumentAction): [string, Permission][] {
  const pages = DIRECTION_PAGES[direction as Direction] ?? DIRECTION_PAGES.in;
  switch (action) {
    case 'create':
      return [[pages.add, 'add']];
    // The add form attaches files and links documents to the draft it has just created.
    case 'editDraft':
      return [
        [pages.drafts, 'edit'],
        [pages.add, 'add'],
      ];
    case 'deleteDraft':
      return [[pages.drafts, 'delete']];
    case 'editFiled':
      return [[pages.list, 'edit']];
    case 'distribute':
      return [[pages.list, 'distribute']];
    // Tasks on incoming mail: the incoming page's `edit`; on memos, the approved memos page's `distribute`.
    case 'task':
      return direction === 'in' ? [[pages.list, 'edit']] : [[pages.list, 'distribute']];
    case 'decide':
      return pages.requiringApproval ? [[pages.requiringApproval, 'approve']] : [];
    case 'dispatch':
      return [[pages.list, 'edit']];
  }
}

/** Whether the caller holds what `action` needs on a document of `direction`. */
export async function mayOnDirection(
  db: Tx,
  caller: AuthContext,
  direction: string,
  action: DocumentAction,
): Promise<boolean> {
  for (const [page, permission] of pagesFor(direction, action))
    if (await q.hasPagePermission(db, caller, page, permission)) return true;
  return false;
}

/** 403 unless the caller holds what `action` needs on a document of `direction`. */
export async function requireOnDirection(
  db: Tx,
  caller: AuthContext,
  direction: string,
  action: DocumentAction,
): Promise<void> {
  if (!(await mayOnDirection(db, caller, direction, action))) throw new HttpProblem('forbidden');
}

export const ref = (id: number | null, ar: string | null, en: string | null) =>
  id === null ? null : { id, nameAr: ar ?? '', nameEn: en ?? '' };

/** Whether the caller's archive office holds the (filed) document, or the caller is an administrator. */
export function holds(s: Scope, doc: q.DocumentRow): boolean {
  return s.isAdmin || (s.archiveDepartmentId !== null && doc.archive_department_id === s.archiveDepartmentId);
}

/** Whether the caller manages (or is secretary of) the department, or is an administrator. */
export function leads(s: Scope, departmentId: number): boolean {
  return s.isAdmin || s.leadDepartmentIds.includes(departmentId);
}

/** Reads a visible document (404 otherwise), optionally locking it for a change. */
export async function visibleDocument(db: Tx, scope: Scope, id: number, forUpdate = false) {
  const [row] = await q.documentsByIds(db, scope, [id], forUpdate);
  if (!row) throw notFound();
  return row;
}

/** The caller's scope (employee, led departments, archive office, clearance). */
export function scope(ctx: ServerContext, caller: AuthContext): Promise<Scope> {
  // Today's delegations ride along (issue 28): the caller acts for their delegators while they last.
  return scopeOf(ctx.db, caller, dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now()));
}
