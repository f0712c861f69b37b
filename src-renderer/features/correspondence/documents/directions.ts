/**
 * What differs between incoming mail, outgoing letters and memos on the screens, declared as data (the
 * way the settings lists declare their columns): the form's fields, how a document is finished
 * (registered by the archive office, or submitted to an approval circuit), where its screens are, and
 * which path opens a document of any direction and state (related links, box rows, "back").
 */
import type { Direction, DocumentState } from '../../../../src-shared/api/correspondence';
import { PAGES } from '../../../../src-shared/pages';

/** The three families the screens know; internal correspondence is shown with the memos. */
export type Family = 'in' | 'out' | 'memo';
export const familyOf = (direction: Direction): Family =>
  direction === 'in' ? 'in' : direction === 'out' ? 'out' : 'memo';

/** Fields of the document form (API field names). */
export type FormField =
  | 'codificationId'
  | 'documentDate'
  | 'receivedDate'
  | 'subject'
  | 'summary'
  | 'senderDepartmentId'
  | 'senderDocumentNumber'
  | 'recipientDepartmentId'
  | 'receiver'
  | 'departmentId'
  | 'recipientIds'
  | 'securityLevelId'
  | 'priorityId'
  | 'mediumId'
  | 'grouping'
  | 'relatedIds';

export interface FamilyDeclaration {
  /** The direction new documents of the form take. */
  direction: Direction;
  /** Test ids of the form screen and its form. */
  screenTestId: string;
  formTestId: string;
  /** Fields by card; `required` ones are needed to finish (register / submit), `always` even for a draft. */
  parties: FormField[];
  required: FormField[];
  /** The recipients picker: external entities (outgoing receivers) or internal departments (memos). */
  recipients: 'external' | 'internal' | null;
  /** Finishing: the archive office registers it, or the author submits it to its circuit. */
  finish: 'register' | 'submit';
  /** Where the add form and a draft of this family live. */
  addPath: string;
  draftPath: (id: number) => string;
  /** The list of finished documents and the author's list of those in a circuit. */
  listPath: string;
  awaitingPath: string | null;
  requiringPath: string | null;
}

export const FAMILIES: Record<Family, FamilyDeclaration> = {
  in: {
    direction: 'in',
    screenTestId: 'incoming-add',
    formTestId: 'incoming-form',
    parties: ['senderDepartmentId', 'senderDocumentNumber', 'recipientDepartmentId', 'receiver'],
    required: ['codificationId', 'documentDate', 'senderDepartmentId', 'recipientDepartmentId'],
    recipients: null,
    finish: 'register',
    addPath: PAGES.inboxAdd,
    draftPath: (id) => `${PAGES.inboxAdd}?draft=${id}`,
    listPath: PAGES.incoming,
    awaitingPath: null,
    requiringPath: null,
  },
  out: {
    direction: 'out',
    screenTestId: 'outgoing-add',
    formTestId: 'outgoing-form',
    parties: ['departmentId', 'recipientIds', 'receiver'],
    required: ['codificationId', 'recipientIds'],
    recipients: 'external',
    finish: 'submit',
    addPath: PAGES.outboxAdd,
    draftPath: (id) => `${PAGES.outboxDrafts}/${id}`,
    listPath: PAGES.outgoing,
    awaitingPath: PAGES.outboxAwaitingApproval,
    requiringPath: PAGES.outboxRequiringApproval,
  },
  memo: {
    direction: 'memo',
    screenTestId: 'memo-add',
    formTestId: 'memo-form',
    parties: ['departmentId', 'recipientIds'],
    required: ['codificationId', 'recipientIds'],
    recipients: 'internal',
    finish: 'submit',
    addPath: PAGES.memoAdd,
    draftPath: (id) => `${PAGES.memoDrafts}/${id}`,
    listPath: PAGES.approvedMemos,
    awaitingPath: PAGES.memosAwaitingApproval,
    requiringPath: PAGES.memosRequiringApproval,
  },
};

/**
 * The form's address for a local draft of this desk (`?local=<id>`, which the form resumes): on the
 * server draft it became, when it became one, else on the add form.
 */
export function localDraftPath(family: FamilyDeclaration, localId: string, serverId: number | null): string {
  const path = serverId !== null ? family.draftPath(serverId) : family.addPath;
  return `${path}${path.includes('?') ? '&' : '?'}local=${localId}`;
}

/** The screen that opens a document of a direction in a state (for links from anywhere). */
export function documentPath(direction: Direction, state: DocumentState, id: number): string {
  const family = FAMILIES[familyOf(direction)];
  if (state === 'draft') return family.draftPath(id);
  if (state === 'registered' || state === 'approved') return `${family.listPath}/${id}`;
  return `${family.awaitingPath ?? family.listPath}/${id}`;
}
