/**
 * The document form's values and their conversions: to the API's document fields, to and from what a
 * local draft keeps on this desk, and from a server draft (to continue it). Pure, shared by the form
 * and its local-draft hook.
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { Document } from '../../../../src-shared/api/correspondence';
import type { LocalDraftFields } from '../../../../src-shared/ipc/contract';
import type { Family } from './directions';

export interface DocumentFormValues {
  codificationId?: number | null;
  subject?: string;
  summary?: string;
  senderDepartmentId?: number | null;
  senderDocumentNumber?: string;
  receiver?: string;
  documentDate?: Dayjs | null;
  receivedDate?: Dayjs | null;
  recipientDepartmentId?: number | null;
  departmentId?: number | null;
  recipientIds?: number[];
  securityLevelId?: number | null;
  priorityId?: number | null;
  mediumId?: number | null;
  /** The file (records management) the document belongs to, chosen from the open files. */
  fileId?: number | null;
  /** A local draft kept before files existed names its file by code here (sent as such: the server maps it). */
  grouping?: string;
  relatedIds?: number[];
  /** Incoming: the date a reply is due by (empty: proposed from the priority at registration). */
  replyDueOn?: Dayjs | null;
  /** Incoming: no reply is needed. */
  noReply?: boolean;
}

/** The reply's due date as the API takes it: null for none, left out to have it proposed. */
function replyDueField(values: DocumentFormValues) {
  if (values.noReply) return { replyDueOn: null };
  return values.replyDueOn ? { replyDueOn: day(values.replyDueOn) } : {};
}

/** The file as the API takes it: its id; else (an older local draft) its code, which the server maps. */
function fileField(values: DocumentFormValues): { fileId: number | null } | { grouping: string } {
  if (values.fileId != null) return { fileId: values.fileId };
  const code = text(values.grouping);
  return code ? { grouping: code } : { fileId: null };
}

const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
export const day = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : null);

/** The form's values as the API's document fields, for the fields the family uses. */
export function toDocumentFields(values: DocumentFormValues, family: Family = 'in') {
  const common = {
    subject: values.subject?.trim() ?? '',
    summary: text(values.summary),
    documentDate: day(values.documentDate),
    codificationId: values.codificationId ?? null,
    securityLevelId: values.securityLevelId ?? null,
    priorityId: values.priorityId ?? null,
    mediumId: values.mediumId ?? null,
    ...fileField(values),
  };
  if (family === 'in')
    return {
      ...common,
      senderDepartmentId: values.senderDepartmentId ?? null,
      senderDocumentNumber: text(values.senderDocumentNumber),
      receiver: text(values.receiver),
      receivedDate: day(values.receivedDate),
      recipientDepartmentId: values.recipientDepartmentId ?? null,
      ...replyDueField(values),
    };
  return {
    ...common,
    // Unchosen, the server takes the author's own department.
    ...(values.departmentId != null ? { departmentId: values.departmentId } : {}),
    recipientIds: values.recipientIds ?? [],
    ...(family === 'out' ? { receiver: text(values.receiver) } : {}),
  };
}

/** The form's values as a local draft keeps them (the create request's fields, empty ones left out). */
export function toLocalFields(values: DocumentFormValues, family: Family): LocalDraftFields {
  const fields: Record<string, unknown> = { ...toDocumentFields(values, family) };
  // The reply's due date is the registering clerk's choice in the form, not part of a desk's draft.
  delete fields.replyDueOn;
  if (values.relatedIds?.length) fields.relatedIds = values.relatedIds;
  for (const [key, value] of Object.entries(fields))
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) delete fields[key];
  return fields as LocalDraftFields;
}

/** A local draft's fields as the form's values (reopening it). */
export function fromLocalFields(fields: Record<string, unknown>): DocumentFormValues {
  const date = (value: unknown) => (typeof value === 'string' ? dayjs(value) : null);
  return {
    ...(fields as DocumentFormValues),
    documentDate: date(fields.documentDate),
    receivedDate: date(fields.receivedDate),
  };
}

/** A document's fields as the form's values (continuing a draft). */
export function toFormValues(doc: Document): DocumentFormValues {
  return {
    codificationId: doc.codification?.id ?? null,
    subject: doc.subject,
    summary: doc.summary ?? '',
    senderDepartmentId: doc.sender?.id ?? null,
    senderDocumentNumber: doc.senderDocumentNumber ?? '',
    receiver: doc.receiver ?? '',
    documentDate: doc.documentDate ? dayjs(doc.documentDate) : null,
    receivedDate: doc.receivedDate ? dayjs(doc.receivedDate) : null,
    recipientDepartmentId: doc.recipientDepartment?.id ?? null,
    departmentId: doc.department?.id ?? null,
    recipientIds: doc.recipients.map((r) => r.id),
    securityLevelId: doc.securityLevel?.id ?? null,
    priorityId: doc.priority?.id ?? null,
    mediumId: doc.medium?.id ?? null,
    fileId: doc.file?.id ?? null,
    grouping: undefined,
    relatedIds: doc.related.map((r) => r.id),
  };
}
