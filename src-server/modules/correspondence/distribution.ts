/**
 * Distribution of filed documents to departments, and the tasks departments give their employees.
 */
import { sql } from 'drizzle-orm';
import {
  FILED_STATES,
  TASK_TRANSITIONS,
  type CreateTaskRequest,
  type DistributeRequest,
  type Distribution,
  type Task,
  type TaskState,
} from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import * as q from './queries';
import { tellDistributed, tellTaskAssigned } from './notices';

import {
  requireOnDirection,
  badField,
  holds,
  leads,
  notFound,
  ref,
  rule,
  scope,
  visibleDocument,
} from './common';
// ---------------------------------------------------------------- distribution

function distributionOut(x: q.DistributionRow): Distribution {
  return {
    id: x.id,
    documentId: x.document_id,
    department: { id: x.department_id, nameAr: x.department_ar, nameEn: x.department_en },
    type: x.type as Distribution['type'],
    notes: x.notes,
    completed: x.completed_at !== null,
    completedAt: x.completed_at,
    distributedBy: ref(x.distributed_by, x.distributed_by_ar, x.distributed_by_en),
    distributedAt: x.distributed_at,
  };
}

/** GET /correspondence/documents/{id}/distribution. */
export async function listDistribution(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<Distribution[]> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  return (await q.distributionsOf(ctx.db, id)).map(distributionOut);
}

/** POST /correspondence/documents/{id}/distribution. */
export async function distribute(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: DistributeRequest,
): Promise<Distribution[]> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (!(FILED_STATES as readonly string[]).includes(doc.state)) throw rule('notRegistered');
    await requireOnDirection(tx, caller, doc.direction, 'distribute');
    // The archive office holding it; a memo also by the leads of the departments it reached.
    const reached =
      doc.direction !== 'in' && (await q.distributionsOf(tx, id)).some((x) => leads(s, x.department_id));
    if (!holds(s, doc) && !reached) throw rule('notArchiveOffice');
    const seen = new Set<number>();
    for (const [i, item] of input.items.entries()) {
      const dep = await q.departmentOf(tx, item.departmentId);
      if (!dep || dep.type !== 'internal' || seen.has(item.departmentId))
        throw badField(`items.${i}.departmentId`);
      seen.add(item.departmentId);
      const distributionId = await q.insertDistribution(tx, {
        documentId: id,
        departmentId: item.departmentId,
        type: item.type,
        notes: item.notes ?? null,
        userId: s.userId,
      });
      if (distributionId === null)
        throw new HttpProblem('conflict', {
          detailKey: 'correspondence.alreadyDistributed',
          fields: { [`items.${i}.departmentId`]: [{ key: 'validation.duplicate' }] },
        });
      await q.appendEvent(tx, id, 'distributed', s.userId, {
        distributionId,
        departmentId: dep.id,
        departmentNameAr: dep.name_ar,
        departmentNameEn: dep.name_en,
        type: item.type,
        notes: item.notes ?? null,
      });
      await tellDistributed(
        tx,
        doc,
        { departmentId: dep.id, nameAr: dep.name_ar, nameEn: dep.name_en, type: item.type },
        s.userId,
      );
    }
    await q.settleDocument(tx, id);
  });
  return (await q.distributionsOf(ctx.db, id)).map(distributionOut);
}

// ---------------------------------------------------------------- tasks

function taskOut(t: q.TaskRow): Task {
  return {
    id: t.id,
    documentId: t.document_id,
    distributionId: t.distribution_id,
    department: { id: t.department_id, nameAr: t.department_ar, nameEn: t.department_en },
    type: t.type as Task['type'],
    tasker: { id: t.employee_id, nameAr: t.employee_ar, nameEn: t.employee_en },
    taskDate: t.task_date,
    notes: t.notes,
    state: t.state as TaskState,
    assignedBy: ref(t.assigned_by, t.assigned_by_ar, t.assigned_by_en),
    createdAt: t.created_at,
    startedAt: t.started_at,
    completedAt: t.completed_at,
    overdue: !!t.overdue,
    document: { id: t.document_id, docNumber: t.doc_number, subject: t.subject },
  };
}

/** GET /correspondence/documents/{id}/tasks. */
export async function listTasks(ctx: ServerContext, caller: AuthContext, id: number): Promise<Task[]> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  return (await q.tasksOf(ctx.db, sql`t.document_id = ${id}`)).map(taskOut);
}

/** GET /correspondence/documents/{id}/tasks/{taskId}. */
export async function getTask(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  taskId: number,
): Promise<Task> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  const [t] = await q.tasksOf(ctx.db, sql`t.document_id = ${id} and t.id = ${taskId}`);
  if (!t) throw notFound();
  return taskOut(t);
}

/** POST /correspondence/documents/{id}/tasks. */
export async function assignTask(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: CreateTaskRequest,
): Promise<Task> {
  const s = await scope(ctx, caller);
  const taskId = await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (!(FILED_STATES as readonly string[]).includes(doc.state)) throw rule('notRegistered');
    await requireOnDirection(tx, caller, doc.direction, 'task');
    const [x] = await q.distributionsOf(tx, id, [input.distributionId]);
    if (!x || x.document_id !== id) throw badField('distributionId');
    if (!leads(s, x.department_id)) throw rule('notDepartmentLead');
    const employee = await q.employeeOf(tx, input.employeeId);
    if (!employee || employee.department_id !== x.department_id) throw badField('employeeId');
    // The one who is tasked must be able to open the letter: their clearance covers its security level.
    const clearance = await q.clearanceOfEmployee(tx, employee.id);
    if (clearance !== null && clearance < doc.security_rank)
      throw rule('assigneeCannotSee', { employeeId: [{ key: 'correspondence.assigneeCannotSee' }] });
    const taskId = await q.insertTask(tx, {
      documentId: id,
      distributionId: x.id,
      departmentId: x.department_id,
      type: x.type,
      employeeId: employee.id,
      taskDate: input.taskDate ?? null,
      notes: input.notes ?? null,
      userId: s.userId,
    });
    await q.appendEvent(tx, id, 'taskAssigned', s.userId, {
      taskId,
      employeeId: employee.id,
      employeeNameAr: employee.name_ar,
      employeeNameEn: employee.name_en,
      departmentId: x.department_id,
      taskDate: input.taskDate ?? null,
    });
    await tellTaskAssigned(
      ctx,
      tx,
      id,
      { id: taskId, employeeId: employee.id, dueOn: input.taskDate ?? null, type: x.type },
      s.userId,
    );
    // A new action task reopens a completed item.
    await q.settleCompletion(tx, x.id, id);
    return taskId;
  });
  return getTask(ctx, caller, id, taskId);
}

/**
 * PUT /correspondence/documents/{id}/tasks/{taskId}/state: allowed moves only (422 otherwise). The tasker
 * (or the department's lead) starts and completes, with an optional result note; whoever assigned the task
 * or leads its department reopens a completed one (back to in progress), with an optional reason. A task
 * changed meanwhile (a second click, another desk) is 409, never a double step.
 */
export async function moveTask(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  taskId: number,
  to: TaskState,
  note: string | null = null,
): Promise<Task> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    const [t] = await q.tasksOf(tx, sql`t.document_id = ${id} and t.id = ${taskId}`);
    if (!t) throw notFound();
    const from = t.state as TaskState;
    const reopen = from === 'completed' && to === 'inProgress';
    if (reopen) {
      const assigner = t.assigned_by !== null && t.assigned_by === s.userId;
      if (!assigner && !leads(s, t.department_id))
        throw new HttpProblem('forbidden', {
          detailKey: 'correspondence.notAssigner',
          code: 'correspondence.notAssigner',
        });
    } else {
      const mine = t.employee_id === s.employeeId || leads(s, t.department_id);
      if (!mine) throw rule('notTasker');
      if (!TASK_TRANSITIONS[from].includes(to))
        throw rule('taskTransition', { state: [{ key: 'validation.choice' }] });
    }
    if (!(await q.moveTask(tx, taskId, from, to)))
      throw new HttpProblem('conflict', {
        detailKey: 'correspondence.taskChanged',
        code: 'correspondence.taskChanged',
      });
    const details = {
      taskId,
      employeeId: t.employee_id,
      employeeNameAr: t.employee_ar,
      employeeNameEn: t.employee_en,
      ...(note && note.trim() ? { notes: note.trim() } : {}),
    };
    const event = reopen ? 'taskReopened' : to === 'inProgress' ? 'taskStarted' : 'taskCompleted';
    await q.appendEvent(tx, id, event, s.userId, details);
    // Completing may complete the department's item; reopening takes that back (settleCompletion does both).
    if ((to === 'completed' || reopen) && (await q.settleCompletion(tx, t.distribution_id, id)))
      await q.appendEvent(tx, id, 'completed', s.userId, {
        departmentId: t.department_id,
        departmentNameAr: t.department_ar,
        departmentNameEn: t.department_en,
      });
  });
  return getTask(ctx, caller, id, taskId);
}
