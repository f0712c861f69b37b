/**
 * The rules of the correspondence core. Every state change of a document appends its timeline event in
 * the same transaction. Decisions where the issue was silent:
 * - Drafts are created by anyone holding `add` on the direction's add page (inbox/outbox/memos); they
 *   are seen and edited by their creator only. Registered documents are records: they are not edited
 *   (PUT answers 422), they gain attachments, links, distributions and tasks. Approved letters and memos
 *   are frozen: what is added later is an addition after approval. What a change to a document's content
 *   may do in its state is one rule, content.ts, whatever route asks.
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
  AUTHOR_STATES,
  FILED_STATES,
  type AdditionKind,
  type Attachment,
  type AttachmentText,
  type CreateDocumentRequest,
  type Document,
  type Follow,
  type FollowRequest,
  type RelatedDocument,
  type UploadedAttachment,
  type TimelineEntry,
  type UpdateDocumentRequest,
} from '../../../src-shared/api/correspondence';
import { formatRegistrationNumber } from '../../../src-shared/numbering';
import type { ServerContext } from '../../context';
import type { ReceivedFile } from '../../http/upload';
import { documentRequestHash, keyReused, sameRequest } from '../../http/idempotency';
import type { AuthContext } from '../../http/access';
import { HttpProblem, type FieldMessage } from '../../http/problem';
import { cleanFileName } from '../../http/upload';
import type { Tx } from '../auth/queries';
import * as q from './queries';
import { lookup as q_lookup } from './queries';
import { normalizeArabic } from '../../../src-shared/arabic';
import { type Scope } from './visibility';
import { fileByCode, fileById } from '../../db/records';

import { CIRCUIT_DIRECTIONS } from './approval-engine';
import { approvalOf, callersTurn } from './approval-view';
import { proposedReplyDue, replyOf, setReplyDue, todayOf } from './due';
import { contentRule, type ContentChange, type ContentVerdict } from './content';
import {
  type DocumentAction,
  mayOnDirection,
  requireOnDirection,
  badField,
  fileClosed,
  refuseUnderHold,
  holds,
  leads,
  notFound,
  ref,
  rule,
  scope,
  visibleDocument,
} from './common';
function attachmentOut(a: q.AttachmentRow): Attachment {
  return {
    id: a.id,
    documentId: a.document_id,
    fileName: a.file_name,
    contentType: a.mime,
    size: a.size,
    sha256: a.sha256,
    uploadedBy: ref(a.uploaded_by, a.uploaded_by_ar, a.uploaded_by_en),
    createdAt: a.uploaded_at,
    kind: a.kind,
    text: {
      status: a.text_status,
      pagesDone: a.text_pages_done,
      pages: a.text_pages,
    },
  };
}

function relatedOut(r: Awaited<ReturnType<typeof q.relatedOf>>[number]): RelatedDocument {
  return {
    id: r.id,
    direction: r.direction as RelatedDocument['direction'],
    state: r.state as RelatedDocument['state'],
    docNumber: r.doc_number,
    subject: r.subject,
    documentDate: r.document_date,
  };
}

/** Whether the caller's archive office holds the (registered) document, or the caller is an administrator. */
async function documentOut(
  db: Tx,
  caller: AuthContext,
  scope: Scope,
  row: q.DocumentRow,
  today: string,
): Promise<Document> {
  // One after another: `db` may be a transaction's single connection.
  const related = await q.relatedOf(db, scope, row.id);
  const attachments = await q.attachmentsOf(db, [row.id]);
  const distributions = await q.distributionsOf(db, row.id);
  const recipients = await q.recipientsListOf(db, [row.id]);
  const approval = await approvalOf(db, row);
  const filed = (FILED_STATES as readonly string[]).includes(row.state);
  const mayTask = filed && (await mayOnDirection(db, caller, row.direction, 'task'));
  const mayDistribute = filed && (await mayOnDirection(db, caller, row.direction, 'distribute'));
  // The distributions the caller may task employees under: those of the departments they lead.
  const taskable = mayTask ? distributions.filter((x) => leads(scope, x.department_id)).map((x) => x.id) : [];
  const authorHolds =
    (row.created_by === scope.userId || scope.isAdmin) &&
    (row.direction === 'in'
      ? row.state === 'draft'
      : (AUTHOR_STATES as readonly string[]).includes(row.state));
  const mayEdit = authorHolds && (await mayOnDirection(db, caller, row.direction, 'editDraft'));
  const circuit = CIRCUIT_DIRECTIONS.includes(row.direction);
  const turn = await callersTurn(db, caller, scope, row);
  return {
    id: row.id,
    direction: row.direction as Document['direction'],
    state: row.state as Document['state'],
    docNumber: row.doc_number,
    sequence: row.sequence,
    year: row.year,
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
            level: row.security_rank,
          },
    priority:
      row.priority_id === null
        ? null
        : { ...ref(row.priority_id, row.priority_ar, row.priority_en)!, level: row.priority_rank },
    department: ref(row.department_id, row.department_ar, row.department_en),
    recipientDepartment: ref(row.recipient_id, row.recipient_ar, row.recipient_en),
    medium: ref(row.medium_id, row.medium_ar, row.medium_en),
    file:
      row.file_id === null
        ? null
        : {
            id: row.file_id,
            code: row.file_code ?? '',
            titleAr: row.file_title_ar ?? '',
            titleEn: row.file_title_en ?? '',
            closed: !!row.file_closed,
          },
    grouping: row.file_code,
    distributed: !!row.distributed,
    completed: row.completed_at !== null,
    followed: !!row.followed,
    recipients: recipients.map((r) => ({ id: r.id, nameAr: r.name_ar, nameEn: r.name_en })),
    version: row.version,
    approval,
    dispatch:
      row.dispatched_at === null
        ? null
        : {
            medium: ref(row.dispatch_medium_id, row.dispatch_medium_ar, row.dispatch_medium_en),
            date: row.dispatch_date,
            delivered: !!row.delivered,
            dispatchedAt: row.dispatched_at,
            dispatchedBy: ref(row.dispatched_by, row.dispatched_by_ar, row.dispatched_by_en),
          },
    related: related.map(relatedOut),
    attachments: attachments.map(attachmentOut),
    reply: await replyOf(db, caller, scope, row, today),
    // The same rules `distribute` and `assignTask` enforce, so the screens offer only what will be taken.
    abilities: {
      // Incoming: the archive office holding it; memos: also the leads of the departments it reached.
      distribute:
        mayDistribute &&
        (holds(scope, row) ||
          (row.direction !== 'in' && distributions.some((x) => leads(scope, x.department_id)))),
      assignTasks: taskable.length > 0,
      assignTasksFor: taskable,
      edit: mayEdit,
      submit: mayEdit && circuit && row.created_by === scope.userId,
      decide: !!turn,
      decideOnBehalfOf: turn?.onBehalfOf ?? null,
      dispatch:
        row.direction === 'out' &&
        row.state === 'approved' &&
        holds(scope, row) &&
        (await mayOnDirection(db, caller, row.direction, 'dispatch')),
      // The checks an addition after approval passes (content.ts, requireFiling).
      addAfterApproval:
        row.state === 'approved' &&
        holds(scope, row) &&
        (await mayOnDirection(db, caller, row.direction, 'editFiled')),
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
  // The file: by id, or (older clients and offline drafts) by the code the grouping field names.
  if (input.fileId !== undefined || input.grouping !== undefined) {
    const file =
      input.fileId !== undefined
        ? input.fileId === null
          ? null
          : await fileById(db, input.fileId)
        : input.grouping === null || input.grouping === undefined
          ? null
          : await fileByCode(db, input.grouping);
    if (file === undefined) throw badField(input.fileId !== undefined ? 'fileId' : 'grouping');
    if (file && !file.open) throw fileClosed();
    v.file_id = file?.id ?? null;
  }
  // Only incoming mail is answered (an incoming draft keeps the date for its registration).
  if (input.replyDueOn !== undefined) {
    if (input.direction !== 'in') throw badField('replyDueOn');
    v.reply_due_on = input.replyDueOn;
  }
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

/**
 * Links a document to others the caller sees. A link changes both documents, so the content rule applies to
 * each end: `self` is what it says of the document itself; a document in its circuit takes no link, and an
 * approved one takes it as an addition (its timeline says so).
 */
async function link(
  db: Tx,
  scope: Scope,
  documentId: number,
  relatedIds: readonly number[],
  self: Pick<ContentVerdict, 'addition'> = { addition: false },
) {
  const wanted = [...new Set(relatedIds)];
  if (wanted.includes(documentId)) throw badField('documentIds');
  const others = await q.documentsByIds(db, scope, wanted);
  if (others.length !== wanted.length) throw badField('documentIds');
  const verdicts = new Map(others.map((o) => [o.id, contentRule(o, { change: 'link' })]));
  for (const other of wanted) {
    if (await q.relate(db, documentId, other, scope.userId)) {
      const after = (addition: boolean | undefined) => (addition ? { afterApproval: true } : {});
      await q.appendEvent(db, documentId, 'related', scope.userId, {
        documentId: other,
        ...after(self.addition),
      });
      await q.appendEvent(db, other, 'related', scope.userId, {
        documentId,
        ...after(verdicts.get(other)?.addition),
      });
    }
  }
}

/**
 * Registers a locked draft: checks, takes the next number, appends `registered`. An incoming letter's
 * reply is due by `replyDueOn` when the request gives one (null: no reply needed), else by the date its
 * draft kept, else by the date its priority proposes from `today` (working days, the deadline settings).
 */
async function registerLocked(
  tx: Tx,
  s: Scope,
  doc: q.DocumentRow,
  reply: { today: string; replyDueOn?: string | null },
) {
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
  // A closed file takes no new documents (records management, docs/records.md).
  if (doc.file_id !== null && doc.file_closed) throw fileClosed();

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
    archive = targetArchive ?? target;
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
  if (doc.direction === 'in') {
    const due =
      reply.replyDueOn !== undefined
        ? reply.replyDueOn
        : (doc.reply_due_on ?? (await proposedReplyDue(tx, doc.priority_id, reply.today)));
    // Not a change of its content: the version stays.
    if (due !== doc.reply_due_on) await setReplyDue(tx, doc.id, due);
  }
}

/**
 * Checks the recipients of a document: outgoing letters go to external entities, memos to internal
 * departments (400 naming the field otherwise); incoming documents have none (their recipient is a field).
 */
async function recipientsOf(db: Tx, direction: string, ids: readonly number[] | undefined) {
  if (ids === undefined) return undefined;
  if (direction === 'in' && ids.length) throw badField('recipientIds');
  if (new Set(ids).size !== ids.length) throw badField('recipientIds', 'validation.duplicate');
  const want = direction === 'out' ? 'external' : 'internal';
  for (const id of ids) {
    const dep = await q.departmentOf(db, id);
    if (!dep || dep.type !== want) throw badField('recipientIds');
  }
  return ids;
}

/** Checks, inserts and (with `register`) registers a new document in `tx`; answers its id. */
async function insertNew(tx: Tx, s: Scope, input: CreateDocumentRequest, today: string) {
  const values = await columnsOf(tx, input);
  const recipients = await recipientsOf(tx, input.direction, input.recipientIds);
  // An outgoing letter or memo is sent from the author's department unless they choose another.
  if (CIRCUIT_DIRECTIONS.includes(input.direction) && values.department_id === undefined)
    values.department_id = s.departmentId;
  const id = await q.insertDocument(tx, {
    ...values,
    direction: input.direction,
    created_by: s.userId,
    archive_department_id: s.archiveDepartmentId,
  });
  if (recipients?.length) await q.setRecipients(tx, id, recipients);
  await q.appendEvent(tx, id, 'created', s.userId, { direction: input.direction });
  if (input.relatedIds?.length) await link(tx, s, id, input.relatedIds);
  if (input.register)
    await registerLocked(tx, s, await visibleDocument(tx, s, id, true), {
      today,
      ...(input.replyDueOn !== undefined ? { replyDueOn: input.replyDueOn } : {}),
    });
  return id;
}

/** POST /correspondence/documents. */
export async function createDocument(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateDocumentRequest,
): Promise<Document> {
  return (await createOrReplayDocument(ctx, caller, input)).document;
}

/**
 * POST /correspondence/documents with the caller's `Idempotency-Key` (`key`): the document is recorded
 * under (caller, key) in its own transaction with a hash of the body it came with (http/idempotency.ts),
 * and a request with a key already used and the same body answers the document it made (`replayed`)
 * without checking or creating anything; with another body it is refused (422 `idempotency.keyReused`)
 * rather than answered with a document that is not what it asked for. A receipt older than hashes
 * replays whatever the body. Requests with one key are serialised on it, so racing retries make one
 * document. A receipt goes with its document (cascade): once that document is deleted, the key is free
 * and a retry creates a new one.
 */
export async function createOrReplayDocument(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateDocumentRequest,
  key?: string,
): Promise<{ document: Document; replayed: boolean }> {
  const s = await scope(ctx, caller);
  const answer = async (id: number, replayed: boolean) => ({
    document: await getDocument(ctx, caller, id, s),
    replayed,
  });
  const hash = documentRequestHash(input);
  /** The document a receipt names, if this request is the one its key first came with. */
  const replay = (prior: { documentId: number; requestHash: string | null }) => {
    if (!sameRequest(prior.requestHash, hash)) throw keyReused();
    return prior.documentId;
  };
  if (key !== undefined) {
    const prior = await q.documentReceipt(ctx.db, s.userId, key);
    if (prior !== null) return answer(replay(prior), true);
  }
  await requireOnDirection(ctx.db, caller, input.direction, 'create');
  if (input.register && CIRCUIT_DIRECTIONS.includes(input.direction)) throw rule('circuitRequired');
  const made = await ctx.db.transaction(async (tx) => {
    if (key !== undefined) {
      await q.lockDocumentReceipt(tx, s.userId, key);
      // A concurrent request with this key may have committed while this one waited for the lock.
      const raced = await q.documentReceipt(tx, s.userId, key);
      if (raced !== null) return { id: replay(raced), replayed: true };
    }
    const id = await insertNew(tx, s, input, todayOf(ctx));
    if (key !== undefined)
      await q.insertDocumentReceipt(tx, { userId: s.userId, key, documentId: id, requestHash: hash });
    return { id, replayed: false };
  });
  return answer(made.id, made.replayed);
}

/** GET /correspondence/documents/{id}. */
export async function getDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  known?: Scope,
): Promise<Document> {
  const s = known ?? (await scope(ctx, caller));
  return documentOut(ctx.db, caller, s, await visibleDocument(ctx.db, s, id), todayOf(ctx));
}

/**
 * The author's hold on a document they may change (content.ts): a draft (incoming), or an outgoing letter
 * or memo while it is with them (draft, changes requested, rejected). Others get 404; a document in its
 * circuit, registered or approved is 422 saying why.
 */
async function authorsDocument(tx: Tx, caller: AuthContext, s: Scope, id: number, action: DocumentAction) {
  const doc = await visibleDocument(tx, s, id, true);
  contentRule(doc, { change: action === 'deleteDraft' ? 'delete' : 'edit' });
  if (doc.created_by !== s.userId && !s.isAdmin) throw notFound();
  await requireOnDirection(tx, caller, doc.direction, action);
  return doc;
}

/**
 * PUT /correspondence/documents/{id}: drafts only, by their creator. With `expectedVersion` (the client's
 * If-Match) the edit applies only to that version of the document, read under the row lock: another
 * version is 409 `document.versionConflict` naming the current one, and nothing is written.
 */
export async function updateDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateDocumentRequest,
  expectedVersion?: number,
): Promise<Document> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await authorsDocument(tx, caller, s, id, 'editDraft');
    if (expectedVersion !== undefined && doc.version !== expectedVersion)
      throw new HttpProblem('conflict', {
        code: 'document.versionConflict',
        detailKey: 'document.versionConflict',
        params: { version: doc.version },
      });
    const values = await columnsOf(tx, {
      ...input,
      direction: doc.direction as CreateDocumentRequest['direction'],
    });
    const recipients = await recipientsOf(tx, doc.direction, input.recipientIds);
    if (recipients) await q.setRecipients(tx, id, recipients);
    await q.updateDocument(tx, id, values);
    await q.appendEvent(tx, id, 'updated', s.userId, { fields: Object.keys(input) });
  });
  return getDocument(ctx, caller, id, s);
}

/** DELETE /correspondence/documents/{id}: a draft, by its creator. */
export async function deleteDraft(ctx: ServerContext, caller: AuthContext, id: number): Promise<void> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    await authorsDocument(tx, caller, s, id, 'deleteDraft');
    await refuseUnderHold(tx, id);
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
    await requireOnDirection(tx, caller, doc.direction, 'create');
    // Outgoing letters and memos are numbered by their signatory's approval, never registered directly.
    if (CIRCUIT_DIRECTIONS.includes(doc.direction)) throw rule('circuitRequired');
    await registerLocked(tx, s, doc, { today: todayOf(ctx) });
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

/** GET /correspondence/documents/lookup?q=. */
export async function lookupDocuments(
  ctx: ServerContext,
  caller: AuthContext,
  query: string | undefined,
): Promise<RelatedDocument[]> {
  const s = await scope(ctx, caller);
  const q = normalizeArabic((query ?? '').trim());
  return (await q_lookup(ctx.db, s, q)).map(relatedOut);
}

/** GET /correspondence/documents/holders: the visible documents holding a file of this content. */
export async function contentHolders(
  ctx: ServerContext,
  caller: AuthContext,
  sha256: string,
  exceptId: number | undefined,
): Promise<RelatedDocument[]> {
  const s = await scope(ctx, caller);
  return (await q.holdersOf(ctx.db, s, sha256, exceptId ?? null)).map(relatedOut);
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
    const self = await requireLinking(tx, caller, await visibleDocument(tx, s, id, true), { change: 'link' });
    await link(tx, s, id, documentIds, self);
  });
  return (await q.relatedOf(ctx.db, s, id)).map(relatedOut);
}

/** DELETE /correspondence/documents/{id}/related/{relatedId}. */
export async function removeRelated(ctx: ServerContext, caller: AuthContext, id: number, relatedId: number) {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    // Both ends must be visible: unlinking writes into the other document's timeline too.
    const [other] = await q.documentsByIds(tx, s, [relatedId]);
    if (!other) throw notFound();
    const approvedWith = await q.linkApprovedWith(tx, id, relatedId);
    if (approvedWith === null) throw notFound();
    await requireLinking(tx, caller, doc, { change: 'unlink', approvedWith });
    // The other end's content rule too: a link an approved document had when approved stays.
    contentRule(other, { change: 'unlink', approvedWith: !!(await q.linkApprovedWith(tx, relatedId, id)) });
    if (!(await q.unrelate(tx, id, relatedId))) throw notFound();
    await q.appendEvent(tx, id, 'unrelated', s.userId, { documentId: relatedId });
    await q.appendEvent(tx, relatedId, 'unrelated', s.userId, { documentId: id });
  });
}

// ---------------------------------------------------------------- attachments

/**
 * May the caller make this change to the document's attachments (content.ts says what the change may be
 * in the document's state)? The author while it is theirs (with the draft permissions of its direction);
 * once filed, its archive office (with `edit` on its direction's list). Answers the verdict.
 */
export async function requireFiling(
  tx: Tx,
  caller: AuthContext,
  s: Scope,
  doc: q.DocumentRow,
  change: Extract<ContentChange, { change: 'attach' | 'detach' }>,
): Promise<ContentVerdict> {
  const verdict = contentRule(doc, change);
  if (verdict.phase === 'author') {
    if (!s.isAdmin && doc.created_by !== s.userId) throw rule('notArchiveOffice');
    await requireOnDirection(tx, caller, doc.direction, 'editDraft');
  } else {
    await requireOnDirection(tx, caller, doc.direction, 'editFiled');
    if (!holds(s, doc)) throw rule('notArchiveOffice');
  }
  return verdict;
}

/**
 * Linking documents (content.ts for what a link may do): the author while it is theirs, or whoever may
 * edit filed documents of its direction.
 */
async function requireLinking(
  tx: Tx,
  caller: AuthContext,
  doc: q.DocumentRow,
  change: Extract<ContentChange, { change: 'link' | 'unlink' }>,
): Promise<ContentVerdict> {
  const verdict = contentRule(doc, change);
  await requireOnDirection(tx, caller, doc.direction, verdict.phase === 'author' ? 'editDraft' : 'editFiled');
  return verdict;
}

/**
 * Records a stored file as an attachment of a document, as `verdict` says (every route that attaches goes
 * through here): content raises the document's version and is `attachmentAdded`; an addition after
 * approval leaves the version (and so the approvals and the number) alone and is `addedAfterApproval`.
 */
export async function fileAttachment(
  tx: Tx,
  s: Scope,
  documentId: number,
  verdict: ContentVerdict,
  file: { sha256: string; fileName: string; size: number },
  /** A part of a scanned batch cut by its codes: the batch and its pages, said on the timeline. */
  origin?: { batch: string; pages: number[] },
): Promise<number> {
  const attachmentId = await q.insertAttachment(tx, {
    documentId,
    sha256: file.sha256,
    fileName: file.fileName,
    size: file.size,
    mime: 'application/pdf',
    userId: s.userId,
    kind: verdict.kind,
  });
  const details = { attachmentId, fileName: file.fileName, size: file.size, ...origin };
  if (verdict.addition)
    await q.appendEvent(tx, documentId, 'addedAfterApproval', s.userId, { ...details, kind: verdict.kind });
  else {
    await q.bumpVersion(tx, documentId);
    await q.appendEvent(tx, documentId, 'attachmentAdded', s.userId, details);
  }
  return attachmentId;
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

/**
 * POST /correspondence/documents/{id}/attachments (`kind` content: part of the document) and
 * POST …/additions/{kind} (an addition after approval): a PDF by content within the size limit.
 */
export async function addAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  receive: () => Promise<ReceivedFile>,
  kind: 'content' | AdditionKind = 'content',
): Promise<UploadedAttachment> {
  const s = await scope(ctx, caller);
  const change = { change: 'attach', kind } as const;
  // Checked before a byte is read: nothing is received for a document the caller may not file on.
  await requireFiling(ctx.db, caller, s, await visibleDocument(ctx.db, s, id), change);
  const file = await receive();
  const stored = { sha256: file.sha256, size: file.size };
  await file.store(ctx.files);
  const fileName = cleanFileName(file.fileName, `document-${stored.sha256.slice(0, 8)}.pdf`);
  const attachmentId = await ctx.db.transaction(async (tx) => {
    // Checked again under the lock: the document may have moved on while the file was stored.
    const verdict = await requireFiling(tx, caller, s, await visibleDocument(tx, s, id, true), change);
    return fileAttachment(tx, s, id, verdict, { ...stored, fileName });
  });
  const [row] = await q.attachmentsOf(ctx.db, [id], attachmentId);
  const alsoIn = (await q.holdersOf(ctx.db, s, stored.sha256, id)).map(relatedOut);
  return { ...attachmentOut(row!), alsoIn };
}

/** GET …/attachments/{attachmentId}/content: the bytes, for a caller who sees the document. */
export async function openAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  attachmentId: number,
): Promise<{ attachment: Attachment; open: (range?: { start: number; end: number }) => Readable }> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  const [row] = await q.attachmentsOf(ctx.db, [id], attachmentId);
  if (!row) throw notFound();
  return { attachment: attachmentOut(row), open: (range) => ctx.files.open(row.sha256, range) };
}

/** GET …/attachments/{attachmentId}/text: what search read of it, for a caller who sees the document. */
export async function attachmentText(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  attachmentId: number,
): Promise<AttachmentText> {
  const s = await scope(ctx, caller);
  await visibleDocument(ctx.db, s, id);
  const [row] = await q.attachmentsOf(ctx.db, [id], attachmentId);
  if (!row) throw notFound();
  const pages = await q.attachmentPagesOf(ctx.db, attachmentId);
  return {
    status: row.text_status,
    pages: pages.map((p) => ({ page: p.page, method: p.method, text: p.text })),
  };
}

/** DELETE …/attachments/{attachmentId}: while the document is its author's (content.ts). */
export async function removeAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  attachmentId: number,
) {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    const [attachment] = await q.attachmentsOf(tx, [id], attachmentId);
    if (!attachment) throw notFound();
    await requireFiling(tx, caller, s, doc, { change: 'detach', kind: attachment.kind });
    await refuseUnderHold(tx, id);
    if (!(await q.deleteAttachment(tx, id, attachmentId))) throw notFound();
    await q.bumpVersion(tx, id);
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
    id: e.id,
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
