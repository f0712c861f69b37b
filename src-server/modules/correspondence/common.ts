/**
 * What the correspondence services share: errors, the caller's scope, reading a visible document, and who
 * holds or leads what.
 */
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem, type FieldMessage } from '../../http/problem';
import type { Tx } from '../auth/queries';
import * as q from './queries';
import { scopeOf, type Scope } from './visibility';
import { PAGES } from '../../../src-shared/pages';

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export const notFound = () => new HttpProblem('notFound');
export const rule = (key: string, fields?: Record<string, FieldMessage[]>) =>
  new HttpProblem('unprocessable', {
    detailKey: `correspondence.${key}`,
    code: `correspondence.${key}`,
    ...(fields ? { fields } : {}),
  });
export const badField = (field: string, key = 'validation.choice') =>
  new HttpProblem('badRequest', { fields: { [field]: [{ key }] } });

/** The page whose permissions govern distributing and tasking (the routes declare the same). */
export const INCOMING_PAGE = PAGES.incoming;

/** The add page whose `add` permission creates and registers documents of a direction. */
export const ADD_PAGE: Record<string, string> = {
  in: PAGES.inboxAdd,
  out: PAGES.outboxAdd,
  internal: PAGES.memoAdd,
  memo: PAGES.memoAdd,
};

export const ref = (id: number | null, ar: string | null, en: string | null) =>
  id === null ? null : { id: Number(id), nameAr: ar ?? '', nameEn: en ?? '' };

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
  return scopeOf(ctx.db, caller);
}

/** Checks the references of a document's fields and answers the column values (400 on a bad choice). */
export async function requireAddPermission(db: Tx, caller: AuthContext, direction: string) {
  if (!(await q.hasPagePermission(db, caller, ADD_PAGE[direction]!, 'add')))
    throw new HttpProblem('forbidden');
}

/** Links `documentId` to each of `relatedIds` (both directions), each visible to the caller. */
