/**
 * The rules of the correspondence core. Every state change of a document appends its timeline event in
 * the same transaction. Decisions where the issue was silent:
 * - Drafts are created by anyone holding `add` on the direction's add page (inbox/outbox/memos); they
 *   are seen and edited by their creator only. Registered documents are records: they are not edited
 *   (PUT answers 422), they gain attachments, links, distributions and tasks.
 * - Registration is done by the archive office: the caller's department has an archive office
 *   (archive type `inOut`) and the recipient department is that department or names it as its archive
 *   office (departments.archive_office_id); administrators may register anything. The document then
 *   belongs to that archive office (its clerks see and distribute it).
 * - Distribution is done by the archive office holding the document (or an administrator), with
 *   `distribute` on /correspondence/inbox/incoming.
 * - Tasks are assigned by the receiving department's manager or its secretary office's secretary, to an
 *   employee of that department; the tasker (or the manager/secretary) moves it new → inProgress →
 *   completed (new → completed allowed). Completing every action task completes the department's item;
 *   every action item completed completes the document.
 * Who sees what: visibility.ts.
 */
import type { Readable } from 'node:stream';
import {
  type Attachment,
  type CreateDocumentRequest,
  type Document,
  type Follow,
  type FollowRequest,
  type RelatedDocument,
  type TimelineEntry,
  type UpdateDocumentRequest,
} from '../../../src-shared/api/correspondence';
import { formatRegistrationNumber } from '../../../src-shared/numbering';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { type FieldMessage } from '../../http/problem';
import { cleanFileName } from '../../http/upload';
import { assertPdf, assertSize } from '../../storage/validate';
import type { Tx } from '../auth/queries';
import * as q from './queries';
import { type Scope } from './visibility';

import {
  INCOMING_PAGE,
  badField,
  holds,
  leads,
  notFound,
  ref,
  requireAddPermission,
  rule,
  scope,
  visibleDocument,
} from './common';
function attachmentOut(a: q.AttachmentRow): Attachment {
  return {
    id: Number(a.id),
    documentId: Number(a.document_id),
    fileName: a.file_name,
    contentType: a.mime,
    size: Number(a.size),
    sha256: a.sha256,
    uploadedBy: ref(a.uploaded_by, a.uploaded_by_ar, a.uploaded_by_en),
    createdAt: a.uploaded_at,
  };
}

function relatedOut(r: Awaited<ReturnType<typeof q.relatedOf>>[number]): RelatedDocument {
  return {
    id: Number(r.id),
    direction: r.direction as RelatedDocument['direction'],
    state: r.state as RelatedDocument['state'],
    docNumber: r.doc_number,
    subject: r.subject,
    documentDate: r.document_date,
  };
}

/** Whether the caller's archive office holds the (registered) document, or the caller is an administrator. */
async function documentOut(db: Tx, caller: AuthContext, scope: Scope, row: q.DocumentRow): Promise<Document> {
  const [related, attachments, distributions, incoming] = await Promise.all([
    q.relatedOf(db, scope, row.id),
    q.attachmentsOf(db, [row.id]),
    q.distributionsOf(db, Number(row.id)),
    q.pagePermissionsOf(db, caller, INCOMING_PAGE),
  ]);
  const registered = row.state === 'registered';
  // The distributions the caller may task employees under: those of the departments they lead.
  const taskable =
    registered && incoming('edit')
      ? distributions.filter((x) => leads(scope, Number(x.department_id))).map((x) => Number(x.id))
      : [];
  return {
    id: Number(row.id),
    direction: row.direction as Document['direction'],
    state: row.state as Document['state'],
    docNumber: row.doc_number,
    sequence: row.sequence === null ? null : Number(row.sequence),
    year: row.year === null ? null : Number(row.year),
    senderDocumentNumber: row.sender_document_number,
    subject: row.subject,
    summary: row.summary,
    sender: ref(row.sender_id, row.sender_ar, row.sender_en),
    receiver: row.receiver,
    receivedDate: row.received_date,
    documentDate: row.document_date,
    codification:
      row.codification_id === null
        ? null
        : {
            ...ref(row.codification_id, row.codification_ar, row.codification_en)!,
            prefix: row.codification_prefix ?? '',
          },
    securityLevel:
      row.security_level_id === null
        ? null
        : {
            ...ref(row.security_level_id, row.security_ar, row.security_en)!,
            level: Number(row.security_rank),
          },
    priority:
      row.priority_id === null
        ? null
        : { ...ref(row.priority_id, row.priority_ar, row.priority_en)!, level: Number(row.priority_rank) },
    department: ref(row.department_id, row.department_ar, row.department_en),
    recipientDepartment: ref(row.recipient_id, row.recipient_ar, row.recipient_en),
    medium: ref(row.medium_id, row.medium_ar, row.medium_en),
    grouping: row.grouping,
    distributed: !!row.distributed,
    completed: row.completed_at !== null,
    followed: !!row.followed,
    related: related.map(relatedOut),
    attachments: attachments.map(attachmentOut),
    // The same rules `distribute` and `assignTask` enforce, so the screens offer only what will be taken.
    abilities: {
      distribute: registered && incoming('distribute') && holds(scope, row),
      assignTasks: taskable.length > 0,
      assignTasksFor: taskable,
    },
    createdBy: ref(row.created_by, row.created_by_ar, row.created_by_en),
    registeredBy: ref(row.registered_by, row.registered_by_ar, row.registered_by_en),
    createdAt: row.created_at,
    registeredAt: row.registered_at,
    updatedAt: row.updated_at,
  };
}

async function columnsOf(db: Tx, input: Partial<CreateDocumentRequest>): Promise<q.DocumentValues> {
  const v: q.DocumentValues = {};
  const setting = async (field: keyof CreateDocumentRequest, list: string) => {
    const id = input[field] as number | null | undefined;
    if (id === undefined || id === null) return id === null ? null : undefined;
    const found = await q.settingOf(db, list, id);
    if (!found) throw badField(field);
    return found;
  };
  const department = async (field: keyof CreateDocumentRequest) => {
    const id = input[field] as number | null | undefined;
    if (id === undefined || id === null) return id;
    if (!(await q.departmentOf(db, id))) throw badField(field);
    return id;
  };
  if (input.subject !== undefined) v.subject = input.subject;
  if (input.senderDocumentNumber !== undefined) v.sender_document_number = input.senderDocumentNumber;
  if (input.summary !== undefined) v.summary = input.summary;
  if (input.receiver !== undefined) v.receiver = input.receiver;
  if (input.receivedDate !== undefined) v.received_date = input.receivedDate;
  if (input.documentDate !== undefined) v.document_date = input.documentDate;
  if (input.grouping !== undefined) v.grouping = input.grouping;
  const sender = await department('senderDepartmentId');
  if (sender !== undefined) v.sender_department_id = sender;
  const owner = await department('departmentId');
  if (owner !== undefined) v.department_id = owner;
  const recipient = await department('recipientDepartmentId');
  if (recipient !== undefined) v.recipient_department_id = recipient;
  const cod = await setting('codificationId', 'codifications');
  if (cod !== undefined) {
    if (cod && input.direction && cod.direction !== input.direction) throw badField('codificationId');
    v.codification_id = cod?.id ?? null;
  }
  const sec = await setting('securityLevelId', 'security-levels');
  if (sec !== undefined) {
    v.security_level_id = sec?.id ?? null;
    v.security_rank = sec?.level ?? 0;
  }
  const pri = await setting('priorityId', 'priorities');
  if (pri !== undefined) {
    v.priority_id = pri?.id ?? null;
    v.priority_rank = pri?.level ?? 0;
  }
  const med = await setting('mediumId', 'mediums');
  if (med !== undefined) v.medium_id = med?.id ?? null;
  return v;
}

async function link(db: Tx, scope: Scope, documentId: number, relatedIds: readonly number[]) {
  const wanted = [...new Set(relatedIds)];
  if (wanted.includes(documentId)) throw badField('documentIds');
  const visible = await q.visibleIds(db, scope, wanted);
  if (visible.length !== wanted.length) throw badField('documentIds');
  for (const other of wanted) {
    if (await q.relate(db, documentId, other, scope.userId)) {
      await q.appendEvent(db, documentId, 'related', scope.userId, { documentId: other });
      await q.appendEvent(db, other, 'related', scope.userId, { documentId });
    }
  }
}

/** Registers a locked draft: checks, takes the next number, appends `registered`. */
async function registerLocked(tx: Tx, s: Scope, doc: q.DocumentRow) {
  if (doc.state !== 'draft') throw rule('notDraft');
  const missing: Record<string, FieldMessage[]> = {};
  const need = (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '')
      missing[field] = [{ key: 'validation.required' }];
  };
  need('codificationId', doc.codification_id);
  need('documentDate', doc.document_date);
  if (doc.direction === 'in') {
    need('senderDepartmentId', doc.sender_id);
    need('recipientDepartmentId', doc.recipient_id);
  } else need('departmentId', doc.department_id);
  if (Object.keys(missing).length) throw rule('incomplete', missing);
  if (doc.codification_direction !== doc.direction)
    throw rule('incomplete', { codificationId: [{ key: 'validation.choice' }] });

  // The archive office of the recipient (incoming) or of the owning department registers.
  const target = doc.direction === 'in' ? doc.recipient_id : doc.department_id;
  const targetArchive = doc.direction === 'in' ? doc.recipient_archive_office_id : null;
  let archive: number | null = s.archiveDepartmentId;
  if (!s.isAdmin) {
    const a = s.archiveDepartmentId;
    const ownDept =
      doc.direction === 'in' ? null : (await q.departmentOf(tx, Number(target)))?.archive_office_id;
    if (a === null || (Number(target) !== a && targetArchive !== a && ownDept !== a))
      throw rule('notArchiveOffice');
  } else if (archive === null) {
    archive = targetArchive ?? (target === null ? null : Number(target));
  }
  const year = await q.currentYear(tx);
  const sequence = await q.takeSequence(tx, Number(doc.codification_id), year);
  const docNumber = formatRegistrationNumber(doc.codification_prefix ?? 'X', year, sequence);
  await q.markRegistered(tx, doc.id, {
    sequence,
    year,
    docNumber,
    userId: s.userId,
    archiveDepartmentId: archive,
  });
  await q.appendEvent(tx, doc.id, 'registered', s.userId, { docNumber });
}

/** POST /correspondence/documents. */
export async function createDocument(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateDocumentRequest,
): Promise<Document> {
  await requireAddPermission(ctx.db, caller, input.direction);
  const s = await scope(ctx, caller);
  const id = await ctx.db.transaction(async (tx) => {
    const values = await columnsOf(tx, input);
    const id = await q.insertDocument(tx, {
      ...values,
      direction: input.direction,
      created_by: s.userId,
      archive_department_id: s.archiveDepartmentId,
    });
    await q.appendEvent(tx, id, 'created', s.userId, { direction: input.direction });
    if (input.relatedIds?.length) await link(tx, s, id, input.relatedIds);
    if (input.register) await registerLocked(tx, s, await visibleDocument(tx, s, id, true));
    return id;
  });
  return getDocument(ctx, caller, id, s);
}

/** GET /correspondence/documents/{id}. */
export async function getDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  known?: Scope,
): Promise<Document> {
  const s = known ?? (await scope(ctx, caller));
  return documentOut(ctx.db, caller, s, await visibleDocument(ctx.db, s, id));
}

/** PUT /correspondence/documents/{id}: drafts only, by their creator. */
export async function updateDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateDocumentRequest,
): Promise<Document> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (doc.state !== 'draft') throw rule('notDraft');
    if (doc.created_by !== s.userId && !s.isAdmin) throw notFound();
    const values = await columnsOf(tx, {
      ...input,
      direction: doc.direction as CreateDocumentRequest['direction'],
    });
    await q.updateDocument(tx, id, values);
    await q.appendEvent(tx, id, 'updated', s.userId, { fields: Object.keys(input) });
  });
  return getDocument(ctx, caller, id, s);
}

/** DELETE /correspondence/documents/{id}: a draft, by its creator. */
export async function deleteDraft(ctx: ServerContext, caller: AuthContext, id: number): Promise<void> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (doc.state !== 'draft') throw rule('notDraft');
    if (doc.created_by !== s.userId && !s.isAdmin) throw notFound();
    await q.deleteDocument(tx, id);
  });
}

/** POST /correspondence/documents/{id}/register. */
export async function registerDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<Document> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    await requireAddPermission(tx, caller, doc.direction);
    await registerLocked(tx, s, doc);
  });
  return getDocument(ctx, caller, id, s);
}

// ---------------------------------------------------------------- related

/** GET /correspondence/documents/{id}/related. */
export async function listRelated(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<RelatedDocument[]> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  return (await q.relatedOf(ctx.db, s, id)).map(relatedOut);
}

/** POST /correspondence/documents/{id}/related. */
export async function addRelated(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  documentIds: number[],
): Promise<RelatedDocument[]> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    await link(tx, s, id, documentIds);
  });
  return (await q.relatedOf(ctx.db, s, id)).map(relatedOut);
}

/** DELETE /correspondence/documents/{id}/related/{relatedId}. */
export async function removeRelated(ctx: ServerContext, caller: AuthContext, id: number, relatedId: number) {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    // Both ends must be visible: unlinking writes into the other document's timeline too.
    if ((await q.visibleIds(tx, s, [relatedId])).length === 0) throw notFound();
    if (!(await q.unrelate(tx, id, relatedId))) throw notFound();
    await q.appendEvent(tx, id, 'unrelated', s.userId, { documentId: relatedId });
    await q.appendEvent(tx, relatedId, 'unrelated', s.userId, { documentId: id });
  });
}

// ---------------------------------------------------------------- attachments

/** May the caller change this document's attachments? Drafts: the creator; registered: the archive office. */
function mayFile(s: Scope, doc: q.DocumentRow): boolean {
  if (doc.state === 'draft') return s.isAdmin || doc.created_by === s.userId;
  return holds(s, doc);
}

/** GET /correspondence/documents/{id}/attachments. */
export async function listAttachments(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<Attachment[]> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  return (await q.attachmentsOf(ctx.db, [id])).map(attachmentOut);
}

/** POST /correspondence/documents/{id}/attachments: a PDF by content within the size limit. */
export async function addAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  file: { fileName: string | undefined; bytes: Buffer },
): Promise<Attachment> {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  if (!mayFile(s, doc)) throw rule('notArchiveOffice');
  assertSize(file.bytes, ctx.config.UPLOAD_MAX_BYTES);
  await assertPdf(file.bytes);
  const stored = await ctx.files.put(file.bytes);
  const fileName = cleanFileName(file.fileName, `document-${stored.sha256.slice(0, 8)}.pdf`);
  const attachmentId = await ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    const attachmentId = await q.insertAttachment(tx, {
      documentId: id,
      sha256: stored.sha256,
      fileName,
      size: stored.size,
      mime: 'application/pdf',
      userId: s.userId,
    });
    await q.appendEvent(tx, id, 'attachmentAdded', s.userId, { attachmentId, fileName, size: stored.size });
    return attachmentId;
  });
  const [row] = await q.attachmentsOf(ctx.db, [id], attachmentId);
  return attachmentOut(row!);
}

/** GET …/attachments/{attachmentId}/content: the bytes, for a caller who sees the document. */
export async function openAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  attachmentId: number,
): Promise<{ attachment: Attachment; stream: Readable }> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  const [row] = await q.attachmentsOf(ctx.db, [id], attachmentId);
  if (!row) throw notFound();
  return { attachment: attachmentOut(row), stream: ctx.files.open(row.sha256) };
}

/** DELETE …/attachments/{attachmentId}: drafts only. */
export async function removeAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  attachmentId: number,
) {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (!mayFile(s, doc)) throw rule('notArchiveOffice');
    if (doc.state !== 'draft') throw rule('notDraft');
    if (!(await q.deleteAttachment(tx, id, attachmentId))) throw notFound();
    await q.appendEvent(tx, id, 'attachmentRemoved', s.userId, { attachmentId });
  });
}

// ---------------------------------------------------------------- follow-ups

/** POST /correspondence/documents/{id}/follow. */
export async function followDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: FollowRequest,
): Promise<Follow> {
  const s = await scope(ctx, caller);
  return ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    const row = await q.follow(tx, {
      userId: s.userId,
      documentId: id,
      dueDate: input.dueDate ?? null,
      notes: input.notes ?? null,
    });
    await q.appendEvent(tx, id, 'followed', s.userId, { dueDate: row.due_date });
    return { documentId: id, dueDate: row.due_date, notes: row.notes, createdAt: row.created_at };
  });
}

/** DELETE /correspondence/documents/{id}/follow. */
export async function unfollowDocument(ctx: ServerContext, caller: AuthContext, id: number): Promise<void> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    await visibleDocument(tx, s, id, true);
    if (!(await q.unfollow(tx, s.userId, id))) throw notFound();
    await q.appendEvent(tx, id, 'unfollowed', s.userId);
  });
}

// ---------------------------------------------------------------- timeline

/** GET /correspondence/documents/{id}/timeline. */
export async function timeline(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<TimelineEntry[]> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  const events = (await q.timeline(ctx.db, id)).map((e) => ({
    id: Number(e.id),
    documentId: id,
    event: e.event as TimelineEntry['event'],
    actor: ref(e.actor_id, e.actor_ar, e.actor_en),
    at: e.at,
    details: typeof e.details === 'string' ? (JSON.parse(e.details) as Record<string, unknown>) : e.details,
  }));
  // An event naming another document (related, unrelated) shows it only to whom may see it; otherwise the
  // entry says that a document was linked, and not which.
  const named = [...new Set(events.map((e) => e.details.documentId).filter((v) => typeof v === 'number'))];
  const visible = new Set(await q.visibleIds(ctx.db, s, named));
  return events.map((e) =>
    typeof e.details.documentId === 'number' && !visible.has(e.details.documentId)
      ? { ...e, details: { hidden: true } }
      : e,
  );
}
