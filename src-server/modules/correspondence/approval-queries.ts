/**
 * SQL of the approval circuits (approval_members, approval_templates), of signing authority (the entity a
 * department belongs to, who holds it, signing_authorities) and of the menu's counts. The circuit's rows
 * are one per person and step; `pending` marks whose turn it is.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type RowOf } from '../../db/rows';
import type { approvalMembers } from '../../db/schema';
import type { Tx } from '../auth/queries';
import { iso } from '../../db/sql';
import { inList } from './visibility';

/** The box family of a direction: outgoing letters, or memos (internal correspondence files with memos). */
export const familyOf = (direction: string): 'out' | 'memo' => (direction === 'out' ? 'out' : 'memo');

/** A person of a circuit with their names and department. */
export type MemberRow = Pick<
  RowOf<typeof approvalMembers.$inferSelect>,
  | 'id'
  | 'position'
  | 'kind'
  | 'user_id'
  | 'pending'
  | 'decision'
  | 'comment'
  | 'decided_at'
  | 'decided_version'
> & {
  name_ar: string;
  name_en: string;
  department_id: number | null;
  department_ar: string | null;
  department_en: string | null;
};

/** The circuit of a document, step by step. */
export async function membersOf(db: Tx, documentId: number): Promise<MemberRow[]> {
  return rowsOf<MemberRow>(
    db,
    sql`select m.id, m.position, m.kind, m.user_id, u.name_ar, u.name_en, e.department_id,
          dep.name_ar as department_ar, dep.name_en as department_en, m.pending, m.decision, m.comment,
          ${iso('m.decided_at')} as decided_at, m.decided_version
        from approval_members m join users u on u.id = m.user_id
        left join employees e on e.id = u.employee_id
        left join departments dep on dep.id = e.department_id
        where m.document_id = ${documentId} order by m.position, m.id`,
  );
}

/** Replaces the circuit of a document (every answer of the round is cleared). */
export async function replaceCircuit(
  db: Tx,
  doc: { id: number; direction: string; security_rank: number },
  steps: readonly { kind: string; userIds: readonly number[] }[],
) {
  await db.execute(sql`delete from approval_members where document_id = ${doc.id}`);
  const values = steps.flatMap((step, i) =>
    step.userIds.map(
      (userId) =>
        sql`(${doc.id}, ${i + 1}, ${step.kind}, ${userId}, (select employee_id from users where id = ${userId}),
          ${familyOf(doc.direction)}, ${doc.security_rank})`,
    ),
  );
  if (values.length)
    await db.execute(sql`insert into approval_members (document_id, position, kind, user_id, employee_id,
        direction, security_rank) values ${sql.join(values, sql`, `)}`);
}

/**
 * Gives the turn to the people of a step who have not approved in this round (all of them on a fresh
 * step; on a resubmission without changes, those who asked for changes or had not answered yet), their
 * answer due by `dueOn`.
 */
export async function activateStep(db: Tx, documentId: number, position: number, dueOn: string | null) {
  await db.execute(sql`update approval_members set pending = true, activated_at = now(), decision = null,
      comment = null, decided_at = null, decided_version = null, due_on = ${dueOn}
    where document_id = ${documentId} and position = ${position} and decision is distinct from 'approved'`);
}

/** Takes the turn from everyone (the circuit ended or went back to its author). */
export async function clearPending(db: Tx, documentId: number) {
  await db.execute(
    sql`update approval_members set pending = false where document_id = ${documentId} and pending`,
  );
}

/** Records a person's answer; false when it was no longer their turn (a second click, a race). */
export async function decide(
  db: Tx,
  memberId: number,
  v: { decision: string; comment: string | null; version: number },
): Promise<boolean> {
  const updated = await rowsOf(
    db,
    sql`update approval_members set pending = false, decision = ${v.decision}, comment = ${v.comment},
          decided_at = now(), decided_version = ${v.version}
        where id = ${memberId} and pending returning id`,
  );
  return updated.length > 0;
}

/** Whether everyone of a step has approved. */
export async function stepApproved(db: Tx, documentId: number, position: number): Promise<boolean> {
  const [row] = await rowsOf<{ open: number }>(
    db,
    sql`select count(*)::int as open from approval_members where document_id = ${documentId}
          and position = ${position} and decision is distinct from 'approved'`,
  );
  return (row?.open ?? 0) === 0;
}

/** The position of the next step after `position`, if any. */
export async function nextStep(db: Tx, documentId: number, position: number): Promise<number | null> {
  const [row] = await rowsOf<{ p: number | null }>(
    db,
    sql`select min(position) as p from approval_members where document_id = ${documentId} and position > ${position}`,
  );
  return row?.p ?? null;
}

/** Active accounts among `userIds` with their clearance (the highest rank they may see). */
export async function accountsOf(db: Tx, userIds: readonly number[]) {
  if (!userIds.length) return [];
  return rowsOf<{ id: number; clearance: number }>(
    db,
    sql`select u.id, coalesce((select s.level from user_clearances c
                   join correspondence_settings s on s.id = c.security_level_id where c.user_id = u.id),
                 (select min(s.level) from correspondence_settings s
                   where s.list = 'security-levels' and s.active), 0)::int as clearance
        from users u where u.id in ${inList(userIds)} and u.active`,
  );
}

export interface ApproverRow {
  user_id: number;
  name_ar: string;
  name_en: string;
  department_id: number | null;
  department_ar: string | null;
  department_en: string | null;
  manager: boolean;
}

const approverColumns = sql`u.id as user_id, u.name_ar, u.name_en, e.department_id,
  dep.name_ar as department_ar, dep.name_en as department_en,
  exists (select 1 from departments m where m.manager_employee_id = e.id and m.active) as manager`;

/** People who may be put in a circuit: active accounts, searched by name or username. */
export async function approverOptions(db: Tx, q: string, limit = 50): Promise<ApproverRow[]> {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<ApproverRow>(
    db,
    sql`select ${approverColumns}
        from users u left join employees e on e.id = u.employee_id and e.active
        left join departments dep on dep.id = e.department_id
        where u.active and (${q} = '' or u.name_ar ilike ${like} or u.name_en ilike ${like} or u.username ilike ${like})
        order by manager desc, u.name_en, u.id limit ${limit}`,
  );
}

/** The same, by user id (for a proposal or a template), in the order given. */
export async function approversByIds(db: Tx, userIds: readonly number[]): Promise<ApproverRow[]> {
  if (!userIds.length) return [];
  const found = await rowsOf<ApproverRow>(
    db,
    sql`select ${approverColumns}
        from users u left join employees e on e.id = u.employee_id and e.active
        left join departments dep on dep.id = e.department_id
        where u.active and u.id in ${inList(userIds)}`,
  );
  const byId = new Map(found.map((r) => [r.user_id, r]));
  return userIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * The managers up a department's tree, from the department itself to the first department that is an
 * entity (or the root), each with the account of its manager (null when the manager has none).
 */
export async function managersUp(db: Tx, departmentId: number) {
  return rowsOf<{ department_id: number; is_entity: boolean; user_id: number | null; depth: number }>(
    db,
    sql`with recursive up as (
          select d.id, d.parent_id, d.is_entity, d.manager_employee_id, 0 as depth
            from departments d where d.id = ${departmentId}
          union all
          select p.id, p.parent_id, p.is_entity, p.manager_employee_id, up.depth + 1
            from departments p join up on p.id = up.parent_id
           where not up.is_entity and up.depth < 50
        )
        select up.id as department_id, up.is_entity, u.id as user_id, up.depth
          from up left join users u on u.employee_id = up.manager_employee_id and u.active
         order by up.depth`,
  );
}

// ---------------------------------------------------------------- signing authority (signing.ts)

export { entityOf, type NamedRow } from '../../db/records';

/** Whether a department may be granted signing authority for: an active internal entity, or a root. */
export async function isEntity(db: Tx, departmentId: number): Promise<boolean> {
  const [row] = await rowsOf<{ ok: boolean }>(
    db,
    sql`select (d.is_entity or d.parent_id is null) and d.type = 'internal' as ok
          from departments d where d.id = ${departmentId}`,
  );
  return !!row?.ok;
}

/** Someone who may sign for an entity, and why (its manager, or a grant). */
export type SignatoryRow = ApproverRow & { authority: 'manager' | 'granted' };

/**
 * Who holds signing authority for an entity now: its manager (an active employee with an active account,
 * of the entity while it is active), then the accounts granted it (active ones, oldest grant first); each
 * person once.
 */
export async function signatoriesOf(db: Tx, entityId: number): Promise<SignatoryRow[]> {
  const found = await rowsOf<SignatoryRow>(
    db,
    sql`select ${approverColumns}, s.authority
        from (
          select u.id as user_id, 'manager' as authority, 0 as ord, null::timestamptz as since
            from departments ent
            join employees me on me.id = ent.manager_employee_id and me.active
            join users u on u.employee_id = me.id
           where ent.id = ${entityId} and ent.active
          union all
          select g.user_id, 'granted', 1, g.granted_at from signing_authorities g
           where g.department_id = ${entityId} and g.revoked_at is null
        ) s
        join users u on u.id = s.user_id and u.active
        left join employees e on e.id = u.employee_id and e.active
        left join departments dep on dep.id = e.department_id
        order by s.ord, s.since, u.id`,
  );
  const byUser = new Map<number, SignatoryRow>();
  for (const r of found) if (!byUser.has(r.user_id)) byUser.set(r.user_id, r);
  return [...byUser.values()];
}

/** A grant of signing authority with the names of who holds, granted and revoked it. */
export type GrantRow = ApproverRow & {
  id: number;
  granted_at: string;
  revoked_at: string | null;
  granted_by: number | null;
  granted_by_ar: string | null;
  granted_by_en: string | null;
  revoked_by: number | null;
  revoked_by_ar: string | null;
  revoked_by_en: string | null;
};

/** Every grant for an entity: those in force first (oldest first), then the revoked (latest first). */
export async function grantsOf(db: Tx, entityId: number): Promise<GrantRow[]> {
  return rowsOf<GrantRow>(
    db,
    sql`select g.id, ${approverColumns}, ${iso('g.granted_at')} as granted_at,
          ${iso('g.revoked_at')} as revoked_at, g.granted_by, gb.name_ar as granted_by_ar,
          gb.name_en as granted_by_en, g.revoked_by, rb.name_ar as revoked_by_ar, rb.name_en as revoked_by_en
        from signing_authorities g join users u on u.id = g.user_id
        left join employees e on e.id = u.employee_id and e.active
        left join departments dep on dep.id = e.department_id
        left join users gb on gb.id = g.granted_by
        left join users rb on rb.id = g.revoked_by
        where g.department_id = ${entityId}
        order by g.revoked_at is not null, g.revoked_at desc, g.granted_at, g.id`,
  );
}

/** Grants signing authority; false when the account holds a grant in force for the entity already. */
export async function insertGrant(db: Tx, v: { entityId: number; userId: number; by: number | null }) {
  const made = await rowsOf(
    db,
    sql`insert into signing_authorities (department_id, user_id, granted_by)
        values (${v.entityId}, ${v.userId}, ${v.by}) on conflict do nothing returning id`,
  );
  return made.length > 0;
}

/** Revokes the grant in force; false when there is none. */
export async function revokeGrant(db: Tx, v: { entityId: number; userId: number; by: number }) {
  const done = await rowsOf(
    db,
    sql`update signing_authorities set revoked_at = now(), revoked_by = ${v.by}
        where department_id = ${v.entityId} and user_id = ${v.userId} and revoked_at is null returning id`,
  );
  return done.length > 0;
}

/** The archive office serving a department: its own, or the nearest up the tree (a department of type inOut). */
export async function archiveOfficeFor(db: Tx, departmentId: number): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`with recursive up as (
          select d.id, d.parent_id, d.archive_type, d.archive_office_id, 0 as depth
            from departments d where d.id = ${departmentId}
          union all
          select p.id, p.parent_id, p.archive_type, p.archive_office_id, up.depth + 1
            from departments p join up on p.id = up.parent_id
           where up.archive_office_id is null and up.archive_type <> 'inOut' and up.depth < 50
        )
        select coalesce(archive_office_id, case when archive_type = 'inOut' then id end) as id
          from up where archive_office_id is not null or archive_type = 'inOut'
         order by depth limit 1`,
  );
  return row?.id ?? null;
}

export async function templateOf(db: Tx, departmentId: number, direction: string) {
  const [row] = await rowsOf<{ steps: { kind: string; userIds: number[] }[] | string; updated_at: string }>(
    db,
    sql`select steps, ${iso('updated_at')} as updated_at from approval_templates
        where department_id = ${departmentId} and direction = ${direction}`,
  );
  if (!row) return null;
  const steps = typeof row.steps === 'string' ? JSON.parse(row.steps) : row.steps;
  return { steps: steps as { kind: string; userIds: number[] }[], updatedAt: row.updated_at };
}

export async function saveTemplate(
  db: Tx,
  v: {
    departmentId: number;
    direction: string;
    steps: readonly { kind: string; userIds: readonly number[] }[];
    userId: number;
  },
) {
  await db.execute(sql`insert into approval_templates (department_id, direction, steps, updated_by)
    values (${v.departmentId}, ${v.direction}, ${JSON.stringify(v.steps)}::jsonb, ${v.userId})
    on conflict (department_id, direction) do update set steps = excluded.steps,
      updated_by = excluded.updated_by, updated_at = now()`);
}

/** The menu's counts: what waits for the caller's approval and what came back to them, per family. */
export async function countsFor(
  db: Tx,
  userId: number,
  clearance: number | null,
  /** Whose pending turns count: the caller's, and their delegators' for approvals (issue 28). */
  approverIds: readonly number[] = [userId],
) {
  const rank = clearance === null ? sql`true` : sql`m.security_rank <= ${clearance}`;
  const drank = clearance === null ? sql`true` : sql`d.security_rank <= ${clearance}`;
  const [row] = await rowsOf<Record<string, number>>(
    db,
    sql`select
          (select count(*) from approval_members m where m.user_id in ${inList(approverIds)} and m.pending
             and m.direction = 'out' and ${rank})::int as out_approval,
          (select count(*) from approval_members m where m.user_id in ${inList(approverIds)} and m.pending
             and m.direction = 'memo' and ${rank})::int as memo_approval,
          (select count(*) from documents d where d.created_by = ${userId} and d.direction = 'out'
             and d.state in ('changesRequested', 'rejected') and ${drank})::int as out_changes,
          (select count(*) from documents d where d.created_by = ${userId} and d.direction in ('memo', 'internal')
             and d.state in ('changesRequested', 'rejected') and ${drank})::int as memo_changes`,
  );
  return {
    outboxRequiringApproval: row?.out_approval ?? 0,
    memosRequiringApproval: row?.memo_approval ?? 0,
    outboxRequiringChanges: row?.out_changes ?? 0,
    memosRequiringChanges: row?.memo_changes ?? 0,
  };
}

/** Marks a document approved and numbered (the signatory's approval), filed with its archive office. */
export async function markApproved(
  db: Tx,
  id: number,
  v: {
    sequence: number;
    year: number;
    docNumber: string;
    userId: number;
    archiveDepartmentId: number | null;
  },
) {
  await db.execute(sql`update documents set state = 'approved', sequence = ${v.sequence}, year = ${v.year},
    doc_number = ${v.docNumber}, approved_at = now(), registered_at = now(), registered_by = ${v.userId},
    current_step = null, archive_department_id = coalesce(${v.archiveDepartmentId}, archive_department_id),
    updated_at = now() where id = ${id}`);
}

export async function setCircuitState(
  db: Tx,
  id: number,
  v: { state: string; currentStep?: number | null; submitted?: boolean },
) {
  await db.execute(sql`update documents set state = ${v.state},
    current_step = ${v.currentStep === undefined ? sql`current_step` : v.currentStep},
    submitted_at = ${v.submitted ? sql`now()` : sql`submitted_at`},
    submitted_version = ${v.submitted ? sql`version` : sql`submitted_version`},
    updated_at = now() where id = ${id}`);
}

export async function setDispatch(
  db: Tx,
  id: number,
  v: { mediumId: number; date: string; delivered: boolean; userId: number },
) {
  await db.execute(sql`update documents set dispatched_at = now(), dispatched_by = ${v.userId},
    dispatch_medium_id = ${v.mediumId}, dispatch_date = ${v.date}, delivered = ${v.delivered}, updated_at = now()
    where id = ${id}`);
}
