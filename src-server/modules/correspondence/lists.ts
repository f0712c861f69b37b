/** The boxes' pages: the keys from boxes.ts, the page's documents read through the visibility predicate. */
import { sql } from 'drizzle-orm';
import {
  type Box,
  type BoxItem,
  type BoxQuery,
  type TaskState,
} from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { boxKeys } from './boxes';
import * as q from './queries';
import { inList } from './visibility';
import { dueDayOf, dueStateOf, overdueDaysOf, todayOf } from './due';

import type { ListPage } from '../../../src-shared/api/envelope';
import { ref, scope } from './common';
// ---------------------------------------------------------------- boxes

/** GET /correspondence/boxes/{box}. */
export async function listBox(
  ctx: ServerContext,
  caller: AuthContext,
  box: Box,
  query: BoxQuery,
): Promise<ListPage<BoxItem>> {
  const s = await scope(ctx, caller);
  const day = await dueDayOf(ctx.db, todayOf(ctx));
  const { keys, total, totalExact, next } = await boxKeys(
    ctx.db,
    s,
    box,
    query,
    {
      exactTotalMax: ctx.config.LIST_EXACT_TOTAL_MAX,
      tallyJumpFrom: ctx.config.LIST_TALLY_JUMP_FROM,
    },
    day,
  );
  const page = { total, totalExact, page: query.page, pageSize: query.pageSize, ...(next ? { next } : {}) };
  if (!keys.length) return { items: [], ...page };
  const docIds = [...new Set(keys.map((k) => k.document_id))];
  const distIds = [
    ...new Set(
      keys
        .map((k) => k.dist_id)
        .filter((x): x is number => x !== null)
        .map(Number),
    ),
  ];
  const taskIds = keys
    .map((k) => k.task_id)
    .filter((x): x is number => x !== null)
    .map(Number);
  // Where each letter went, for the rows that stand for the archive's own copy (no distribution of theirs).
  const archiveRows = keys.filter((k) => k.dist_id === null).map((k) => k.document_id);
  // The addressees of outgoing letters and memos, read beside the documents (their direction is known
  // from the box: incoming mail has none) rather than after them.
  const incomingOnly = box === 'incoming' || box === 'inbox-drafts';
  const [docs, dists, taskRows, recipientRows, addresseeRows] = await Promise.all([
    q.boxDocumentsByIds(ctx.db, s, docIds),
    distIds.length ? q.distributionsOf(ctx.db, 0, distIds) : Promise.resolve([]),
    taskIds.length ? q.tasksOf(ctx.db, sql`t.id in ${inList(taskIds)}`) : Promise.resolve([]),
    box === 'incoming' ? q.recipientsOf(ctx.db, [...new Set(archiveRows)]) : Promise.resolve([]),
    incomingOnly ? Promise.resolve([]) : q.recipientsListOf(ctx.db, docIds),
  ]);
  const addressees = new Map<number, BoxItem['addressees']>();
  const circuitDocs = new Set(docs.filter((d) => d.direction !== 'in').map((d) => d.id));
  for (const r of addresseeRows) {
    if (!circuitDocs.has(r.document_id)) continue;
    const list = addressees.get(r.document_id) ?? [];
    list.push({ id: r.id, nameAr: r.name_ar, nameEn: r.name_en });
    addressees.set(r.document_id, list);
  }
  const recipients = new Map<number, BoxItem['recipients']>();
  for (const r of recipientRows) {
    const list = recipients.get(r.document_id) ?? [];
    list.push({
      department: { id: r.department_id, nameAr: r.department_ar, nameEn: r.department_en },
      type: r.type as 'forAction' | 'forKnowledge',
    });
    recipients.set(r.document_id, list);
  }
  const docById = new Map(docs.map((d) => [d.id, d]));
  const distById = new Map(dists.map((x) => [x.id, x]));
  const taskById = new Map(taskRows.map((t) => [t.id, t]));
  // A delegate's rows of their delegators (issue 28): the names are the scope's own.
  const onBehalfOf = (userId: number | null): BoxItem['onBehalfOf'] => {
    const g = userId === null ? undefined : s.delegators.find((d) => d.userId === userId);
    return g ? { id: g.userId, nameAr: g.nameAr, nameEn: g.nameEn } : null;
  };
  const items: BoxItem[] = [];
  for (const k of keys) {
    const d = docById.get(k.document_id);
    if (!d) continue; // the visibility predicate guards every page
    const x = k.dist_id !== null && box !== 'incoming-tasks' ? distById.get(k.dist_id) : undefined;
    const t = k.task_id !== null ? taskById.get(k.task_id) : undefined;
    const dueState = dueStateOf(k.due_date, !!k.due_done, day);
    items.push({
      key: k.key,
      documentId: d.id,
      direction: d.direction as BoxItem['direction'],
      state: d.state as BoxItem['state'],
      docNumber: d.doc_number,
      subject: d.subject,
      senderDocumentNumber: d.sender_document_number,
      sender: ref(d.sender_id, d.sender_ar, d.sender_en),
      documentDate: d.document_date,
      receivedDate: d.received_date,
      priority:
        d.priority_id === null
          ? null
          : { ...ref(d.priority_id, d.priority_ar, d.priority_en)!, level: d.priority_rank },
      securityLevel:
        d.security_level_id === null
          ? null
          : { ...ref(d.security_level_id, d.security_ar, d.security_en)!, level: d.security_rank },
      registeredAt: d.registered_at,
      createdAt: d.created_at,
      boxDate: k.box_date,
      distribution: x
        ? {
            id: x.id,
            department: { id: x.department_id, nameAr: x.department_ar, nameEn: x.department_en },
            type: x.type as 'forAction' | 'forKnowledge',
            completed: x.completed_at !== null,
          }
        : null,
      recipients: k.dist_id === null ? (recipients.get(d.id) ?? []) : [],
      addressees: addressees.get(d.id) ?? [],
      distributed: !!d.distributed,
      completed: !!k.done,
      task: t
        ? {
            id: t.id,
            state: t.state as TaskState,
            taskDate: t.task_date,
            tasker: { id: t.employee_id, nameAr: t.employee_ar, nameEn: t.employee_en },
          }
        : null,
      dueDate: k.due_date,
      overdue: dueState === 'overdue',
      dueState,
      overdueDays: overdueDaysOf(k.due_date, dueState, day),
      followReason: (k.follow_reason as BoxItem['followReason']) ?? null,
      onBehalfOf: onBehalfOf(k.on_behalf_of),
    });
  }
  return { items, ...page };
}
