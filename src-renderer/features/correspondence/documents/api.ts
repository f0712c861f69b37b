/**
 * The correspondence calls of docs/api.md ("Correspondence"): settings lists, documents, boxes and the
 * sub-resources of one document (distribution, tasks, follow, timeline, attachments, related), typed
 * with the schemas the server validates with (src-shared/api/correspondence.ts). The react-query keys the
 * screens invalidate after a change are in keys.ts (`corrKeys` re-exported here).
 */
import type {
  AdditionKind,
  ApprovalRequest,
  DispatchRequest,
  SubmitRequest,
  UploadedAttachment,
  Box,
  CreateDocumentRequest,
  CreateTaskRequest,
  DistributeRequest,
  FollowRequest,
  ReplyCloseRequest,
  ReplyDueRequest,
  SettingItem,
  SettingsList,
  SettingUpdate,
  TaskState,
  UpdateDocumentRequest,
} from '../../../../src-shared/api/correspondence';
import { settingsEndpoints, type SettingCreateBody } from '../../../../src-shared/api/settings';
import {
  boxEndpoints,
  correspondenceEndpoints as E,
} from '../../../../src-shared/api/correspondence-endpoints';
import { fillPath } from '../../../../src-shared/api/endpoint';
import { readsEndpoints as R } from '../../../../src-shared/api/reads';
import { call } from '../../../lib/call';
import { downloadFile, uploadFile } from '../../../components/upload/transfer';

export type { NamedRef } from '../../../../src-shared/api/correspondence';

/** A row of any settings list. */
export type SettingsRow = SettingItem;

/** The API path of a settings list. */
export const settingsEndpoint = (list: SettingsList) => settingsEndpoints[list].list.path;
/** The API path of a box (GET: the list). */
export const boxEndpoint = (box: Box) => boxEndpoints[box].path;

/** Cache keys live in keys.ts; re-exported here, where callers have always found them. */
export { corrKeys } from './keys';

export const settingsApi = {
  /** The active items of a list, for a form's select (GET …/{list}/options). */
  options: (list: SettingsList) => call(settingsEndpoints[list].options),
  // The screen's form is the list's own (its fields from SETTINGS_LIST_FIELDS); the server checks the
  // body against the list's schema.
  create: (list: SettingsList, body: Record<string, unknown>) =>
    call(settingsEndpoints[list].create, { body: body as SettingCreateBody }),
  update: (list: SettingsList, id: number, body: Record<string, unknown>) =>
    call(settingsEndpoints[list].update, { params: { id }, body: body as SettingUpdate }),
  setActive: (list: SettingsList, id: number, active: boolean) =>
    call(settingsEndpoints[list].setActive, { params: { id }, body: { active } }),
};

/** The API path of an attachment's bytes (the PDF viewer's file source, a download). */
export const attachmentPath = (id: number, attachmentId: number) =>
  fillPath(E.attachmentContent.path, { id, attachmentId });

/** How many reads the document's "Who read it" panel shows at a time. */
export const READS_PAGE_SIZE = 50;

export const documentsApi = {
  /** One document; `read`: this opening's token (the server records the opening once per token). */
  get: (id: number, read?: string) =>
    call(E.getDocument, read ? { params: { id }, query: { read } } : { params: { id } }),
  /** A draft, or with `register: true` a registered document (its number in the answer). */
  create: (body: CreateDocumentRequest) => call(E.createDocument, { body }),
  update: (id: number, body: UpdateDocumentRequest) => call(E.updateDocument, { params: { id }, body }),
  /** Registers a draft: gives it its number. */
  register: (id: number) => call(E.register, { params: { id } }),
  removeDraft: (id: number) => call(E.deleteDraft, { params: { id } }),

  /** Documents the user may see, to link as related. */
  lookup: (q: string) => call(E.lookup, { query: q ? { q } : {} }),
  /** Documents the user may see that already hold a file of this content (by its SHA-256). */
  holders: (sha256: string, except?: number) =>
    call(E.holders, { query: except ? { sha256, except: String(except) } : { sha256 } }),
  relate: (id: number, documentIds: number[]) => call(E.relate, { params: { id }, body: { documentIds } }),
  unrelate: (id: number, relatedId: number) => call(E.unrelate, { params: { id, relatedId } }),

  // Files go through the bridge's upload and download, not `call`: their paths are filled from the same
  // declarations.
  uploadAttachment: (id: number, file: File, onProgress?: (sent: number, total: number) => void) =>
    uploadFile<UploadedAttachment>(
      fillPath(E.addAttachment.path, { id }),
      file,
      onProgress ? { onProgress } : {},
    ),
  /** A file added to an approved document after its approval (a signed copy, a delivery receipt…). */
  addAfterApproval: (id: number, kind: AdditionKind, file: File) =>
    uploadFile<UploadedAttachment>(fillPath(E.addAddition.path, { id, kind }), file),
  removeAttachment: (id: number, attachmentId: number) =>
    call(E.removeAttachment, { params: { id, attachmentId } }),
  /**
   * The attachment's copy to save through `api:download` (recorded as a download; watermarked with the
   * reader's name and the time above the lowest security level).
   */
  downloadAttachment: (id: number, attachmentId: number) =>
    downloadFile(fillPath(R.downloadAttachment.path, { id, attachmentId })),
  /** The attachment's copy to print (recorded as a print; watermarked as a download is). */
  printCopy: (id: number, attachmentId: number) =>
    downloadFile(fillPath(R.printAttachment.path, { id, attachmentId })),
  /** Who read the document (the audit page's holders). */
  reads: (id: number, page = 1) =>
    call(R.documentReads, { params: { id }, query: { page, pageSize: READS_PAGE_SIZE } }),

  distribution: (id: number) => call(E.distribution, { params: { id } }),
  distribute: (id: number, body: DistributeRequest) => call(E.distribute, { params: { id }, body }),

  tasks: (id: number) => call(E.tasks, { params: { id } }),
  assignTask: (id: number, body: CreateTaskRequest) => call(E.assignTask, { params: { id }, body }),
  moveTask: (id: number, taskId: number, state: TaskState, note?: string) =>
    call(E.moveTask, { params: { id, taskId }, body: note ? { state, note } : { state } }),

  follow: (id: number, body: FollowRequest) => call(E.follow, { params: { id }, body }),
  unfollow: (id: number) => call(E.unfollow, { params: { id } }),

  /** An incoming letter's reply: another due date or none (null), or closed with a note. */
  replyDue: (id: number, body: ReplyDueRequest) => call(E.replyDue, { params: { id }, body }),
  replyClose: (id: number, body: ReplyCloseRequest) => call(E.replyClose, { params: { id }, body }),

  timeline: (id: number) => call(E.timeline, { params: { id } }),

  /** Who may be the document's signatory: the holders of signing authority for its entity. */
  signatories: (id: number) => call(E.signatories, { params: { id } }),
  /** The circuit proposed for a draft (or its current one). */
  proposal: (id: number) => call(E.circuitProposal, { params: { id } }),
  submit: (id: number, body: SubmitRequest) => call(E.submit, { params: { id }, body }),
  decide: (id: number, body: ApprovalRequest) => call(E.decide, { params: { id }, body }),
  dispatch: (id: number, body: DispatchRequest) => call(E.dispatch, { params: { id }, body }),
};

export const approvalsApi = {
  /** People who may be put in a circuit, searched by name. */
  approvers: (q: string) => call(E.approvers, { query: q ? { q } : {} }),
  counts: () => call(E.boxCounts),
};
