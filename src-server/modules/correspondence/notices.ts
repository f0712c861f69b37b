/**
 * Who is told what when correspondence moves (issue 28), called in the transaction of the change: a
 * distribution reaches everyone who receives for that department (its manager, its secretaries, its
 * employees — the same people the visibility predicate lets see it), a task its employee, an approval
 * step its people, a decision that sends a document back its author, a dispatch the letter's author.
 * Only people whose clearance covers the document are told. Approvals and tasks reach the delegates of
 * their people too (db/notices.ts).
 */
import { sql } from 'drizzle-orm';
import { notify } from '../../db/notices';
import { rowsOf } from '../../db/rows';
import type { ServerContext } from '../../context';
import { dayIn } from '../../clock';
import type { Tx } from '../auth/queries';

/** The clearance of a user, as the scope reads it (the lowest active level when none is set). */
const CLEARANCE = sql`coalesce((select s.level from user_clearances c
      join correspondence_settings s on s.id = c.security_level_id where c.user_id = u.id),
    (select min(s.level) from correspondence_settings s where s.list = 'security-levels' and s.active), 0)`;

/** The actor's names, frozen in the notice. */
async function actorOf(tx: Tx, userId: number | null) {
  if (userId === null) return null;
  const [row] = await rowsOf<{ name_ar: string; name_en: string }>(
    tx,
    sql`select name_ar, name_en from users where id = ${userId}`,
  );
  return row ? { nameAr: row.name_ar, nameEn: row.name_en } : null;
}

/** Users who receive for a department: its manager, its secretaries, its own employees; cleared for `rank`. */
export async function receiversOf(tx: Tx, departmentId: number, rank: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`select u.id from users u join employees e on e.id = u.employee_id and e.active
         where u.active and ${CLEARANCE} >= ${rank}
           and (e.department_id = ${departmentId}
             or exists (select 1 from departments m where m.id = ${departmentId} and m.manager_employee_id = e.id)
             or exists (select 1 from secretary_offices so where so.department_id = ${departmentId}
                          and so.secretary_employee_id = e.id and so.active))`,
  );
  return rows.map((r) => r.id);
}

/** A distribution made: everyone who receives for the department (the actor left out). */
export async function tellDistributed(
  tx: Tx,
  doc: { id: number; security_rank: number },
  dist: { departmentId: number; nameAr: string; nameEn: string; type: string },
  actorId: number | null,
) {
  const users = (await receiversOf(tx, dist.departmentId, doc.security_rank)).filter((u) => u !== actorId);
  await notify(tx, users, {
    kind: 'distributed',
    documentId: doc.id,
    details: {
      type: dist.type,
      department: { nameAr: dist.nameAr, nameEn: dist.nameEn },
      actor: await actorOf(tx, actorId),
    },
  });
}

/** A task given: its employee's account (and their delegates for tasks). */
export async function tellTaskAssigned(
  ctx: ServerContext,
  tx: Tx,
  documentId: number,
  task: { id: number; employeeId: number; dueOn: string | null; type: string },
  actorId: number | null,
) {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`select u.id from users u where u.employee_id = ${task.employeeId} and u.active`,
  );
  await notify(
    tx,
    rows.map((r) => r.id).filter((u) => u !== actorId),
    {
      kind: 'taskAssigned',
      documentId,
      details: { taskId: task.id, dueOn: task.dueOn, type: task.type, actor: await actorOf(tx, actorId) },
      delegated: { scope: 'tasks', today: dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now()) },
    },
  );
}

/** A step opened: the people whose turn it now is (and their delegates for approvals). */
export async function tellTurn(ctx: ServerContext, tx: Tx, documentId: number, position: number) {
  const rows = await rowsOf<{ user_id: number; kind: string; due_on: string | null }>(
    tx,
    sql`select user_id, kind, to_char(due_on, 'YYYY-MM-DD') as due_on from approval_members
         where document_id = ${documentId} and position = ${position} and pending`,
  );
  for (const r of rows)
    await notify(tx, [r.user_id], {
      kind: 'approvalTurn',
      documentId,
      details: { step: position, stepKind: r.kind, dueOn: r.due_on },
      delegated: { scope: 'approvals', today: dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now()) },
    });
}

/** A document sent back (changes requested, rejected): its author. */
export async function tellAuthorDecision(
  tx: Tx,
  doc: { id: number; created_by: number | null },
  decision: 'changesRequested' | 'rejected',
  comment: string | null,
  actorId: number | null,
) {
  if (doc.created_by === null || doc.created_by === actorId) return;
  await notify(tx, [doc.created_by], {
    kind: 'changesRequested',
    documentId: doc.id,
    details: { decision, comment, actor: await actorOf(tx, actorId) },
  });
}

/** An approval given in a document's circuit (`final`: the last one, the document numbered): its author. */
export async function tellAuthorApproved(
  tx: Tx,
  doc: { id: number; created_by: number | null },
  actorId: number | null,
  onBehalfOf: { nameAr: string; nameEn: string } | null,
  at: { step: number; final: boolean },
) {
  if (doc.created_by === null || doc.created_by === actorId) return;
  await notify(tx, [doc.created_by], {
    kind: 'approved',
    documentId: doc.id,
    details: {
      step: at.step,
      final: at.final,
      actor: await actorOf(tx, actorId),
      ...(onBehalfOf ? { behalfOf: { nameAr: onBehalfOf.nameAr, nameEn: onBehalfOf.nameEn } } : {}),
    },
  });
}

/** An outgoing letter dispatched: its author. */
export async function tellDispatched(
  tx: Tx,
  doc: { id: number; created_by: number | null },
  dispatchDate: string,
  actorId: number | null,
) {
  if (doc.created_by === null || doc.created_by === actorId) return;
  await notify(tx, [doc.created_by], {
    kind: 'dispatched',
    documentId: doc.id,
    details: { dispatchDate, actor: await actorOf(tx, actorId) },
  });
}
