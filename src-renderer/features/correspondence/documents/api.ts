/**
 * The correspondence calls of docs/api.md ("Correspondence"): settings lists, documents, boxes and the
 * sub-resources of one document (distribution, tasks, follow, timeline, attachments, related), typed
 * with the schemas the server validates with (src-shared/api/correspondence.ts). The react-query keys the
 * screens invalidate after a change are in keys.ts (`corrKeys` re-exported here).
 */
import type {
  RelatedDocument,
  AdditionKind,
  ApprovalRequest,
  ApproverOption,
  BoxCounts,
  CircuitProposal,
  DispatchRequest,
  SubmitRequest,
  UploadedAttachment,
  Box,
  CreateDocumentRequest,
  CreateTaskRequest,
  DistributeRequest,
  Distribution,
  Document,
  FollowRequest,
  Follow,
  SettingItem,
  SettingsList,
  SettingUpdate,
  Signatories,
  Task,
  TaskState,
  TimelineEntry,
  UpdateDocumentRequest,
} from '../../../../src-shared/api/correspondence';
import { settingsEndpoints, type SettingCreateBody } from '../../../../src-shared/api/settings';
import { call } from '../../../lib/call';
import { http } from '../../../lib/http';
import { downloadFile, uploadFile } from '../../../components/upload/transfer';

export type { NamedRef } from '../../../../src-shared/api/correspondence';

/** A row of any settings list. */
export type SettingsRow = SettingItem;

const DOCUMENTS = '/correspondence/documents';

/** The API path of a settings list. */
export const settingsEndpoint = (list: SettingsList) => settingsEndpoints[list].list.path;
/** The API path of a box (GET: the list). */
export const boxEndpoint = (box: Box) => `/correspondence/boxes/${box}`;

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

export const documentsApi = {
  get: (id: number) => http.get<Document>(`${DOCUMENTS}/${id}`),
  /** A draft, or with `register: true` a registered document (its number in the answer). */
  create: (body: CreateDocumentRequest) => http.post<Document>(DOCUMENTS, body),
  update: (id: number, body: UpdateDocumentRequest) => http.put<Document>(`${DOCUMENTS}/${id}`, body),
  /** Registers a draft: gives it its number. */
  register: (id: number) => http.post<Document>(`${DOCUMENTS}/${id}/register`),
  removeDraft: (id: number) => http.delete<void>(`${DOCUMENTS}/${id}`),

  /** Documents the user may see, to link as related. */
  lookup: (q: string) => http.get<RelatedDocument[]>(`${DOCUMENTS}/lookup`, { query: q ? { q } : {} }),
  /** Documents the user may see that already hold a file of this content (by its SHA-256). */
  holders: (sha256: string, except?: number) =>
    http.get<RelatedDocument[]>(`${DOCUMENTS}/holders`, {
      query: except ? { sha256, except: String(except) } : { sha256 },
    }),
  relate: (id: number, documentIds: number[]) =>
    http.post<Document>(`${DOCUMENTS}/${id}/related`, { documentIds }),
  unrelate: (id: number, relatedId: number) => http.delete<void>(`${DOCUMENTS}/${id}/related/${relatedId}`),

  uploadAttachment: (id: number, file: File, onProgress?: (sent: number, total: number) => void) =>
    uploadFile<UploadedAttachment>(`${DOCUMENTS}/${id}/attachments`, file, onProgress ? { onProgress } : {}),
  /** A file added to an approved document after its approval (a signed copy, a delivery receipt…). */
  addAfterApproval: (id: number, kind: AdditionKind, file: File) =>
    uploadFile<UploadedAttachment>(`${DOCUMENTS}/${id}/additions/${kind}`, file),
  removeAttachment: (id: number, attachmentId: number) =>
    http.delete<void>(`${DOCUMENTS}/${id}/attachments/${attachmentId}`),
  /** The attachment's bytes through `api:download` (a Blob to show or save). */
  downloadAttachment: (id: number, attachmentId: number) =>
    downloadFile(`${DOCUMENTS}/${id}/attachments/${attachmentId}/content`),

  distribution: (id: number) => http.get<Distribution[]>(`${DOCUMENTS}/${id}/distribution`),
  distribute: (id: number, body: DistributeRequest) =>
    http.post<Distribution[]>(`${DOCUMENTS}/${id}/distribution`, body),

  tasks: (id: number) => http.get<Task[]>(`${DOCUMENTS}/${id}/tasks`),
  assignTask: (id: number, body: CreateTaskRequest) => http.post<Task>(`${DOCUMENTS}/${id}/tasks`, body),
  moveTask: (id: number, taskId: number, state: TaskState, note?: string) =>
    http.put<Task>(`${DOCUMENTS}/${id}/tasks/${taskId}/state`, note ? { state, note } : { state }),

  follow: (id: number, body: FollowRequest) => http.post<Follow>(`${DOCUMENTS}/${id}/follow`, body),
  unfollow: (id: number) => http.delete<void>(`${DOCUMENTS}/${id}/follow`),

  timeline: (id: number) => http.get<TimelineEntry[]>(`${DOCUMENTS}/${id}/timeline`),

  /** Who may be the document's signatory: the holders of signing authority for its entity. */
  signatories: (id: number) => http.get<Signatories>(`${DOCUMENTS}/${id}/signatories`),
  /** The circuit proposed for a draft (or its current one). */
  proposal: (id: number) => http.get<CircuitProposal>(`${DOCUMENTS}/${id}/circuit/proposal`),
  submit: (id: number, body: SubmitRequest) => http.post<Document>(`${DOCUMENTS}/${id}/submit`, body),
  decide: (id: number, body: ApprovalRequest) => http.post<Document>(`${DOCUMENTS}/${id}/approval`, body),
  dispatch: (id: number, body: DispatchRequest) => http.post<Document>(`${DOCUMENTS}/${id}/dispatch`, body),
};

export const approvalsApi = {
  /** People who may be put in a circuit, searched by name. */
  approvers: (q: string) =>
    http.get<ApproverOption[]>('/correspondence/approvers', { query: q ? { q } : {} }),
  counts: () => http.get<BoxCounts>('/correspondence/boxes/counts'),
};
