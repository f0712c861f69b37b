/**
 * One rule for every change to a document's content — its fields, its attachments, its links — whatever
 * route asks: PUT and DELETE of the document, POST and DELETE of an attachment, an addition after approval,
 * intake by number (single and batch), POST and DELETE of a link (on both documents a link joins). Routes
 * ask `contentRule` what a change may do to a document in its state, then check who may make it
 * (documents.ts). A document is:
 * - with its author (a draft; an outgoing letter or memo back for changes or rejected): anything changes;
 * - in its approval circuit: nothing changes (every approval names the version its approver saw);
 * - registered (incoming): a record — its fields stay, attachments are added (the scans of the paper
 *   received are its content and usually come after registration) and never removed, links come and go;
 * - approved (outgoing letters, memos): frozen — its fields, its attachments and the links it had when it
 *   was approved are what was approved and never change. What comes later — a scan of the signed paper
 *   copy, a delivery receipt, another paper, a link to a later document — is an addition: recorded as such
 *   (its attachment kind, its own timeline event), never part of the approved version (the version, the
 *   approvals and the number stay). Additions stay on record like a registered letter's scans; a link
 *   added after approval may be removed again.
 * Intake by number takes a scan: content of a draft or a registered letter, the signed copy of an approved
 * letter or memo.
 */
import { AUTHOR_STATES, type AttachmentKind } from '../../../src-shared/api/correspondence';
import { rule } from './common';

/** A change to a document's content, as routes name it. */
export type ContentChange =
  | { change: 'edit' }
  | { change: 'delete' }
  /** `scan`: a file arriving by intake, whose kind follows the document's state. */
  | { change: 'attach'; kind: AttachmentKind | 'scan' }
  | { change: 'detach'; kind: AttachmentKind }
  | { change: 'link' }
  /** `approvedWith`: the link existed when the document was approved. */
  | { change: 'unlink'; approvedWith: boolean };

/**
 * What a change may do: who makes it (the author while the document is theirs, otherwise whoever files
 * on the record), whether it is an addition after approval, and the kind an attached file is recorded as.
 */
export interface ContentVerdict {
  phase: 'author' | 'filed';
  addition: boolean;
  kind: AttachmentKind;
}

/** Whether the document is its author's to change, in its circuit, or a record (registered or approved). */
export function phaseOf(doc: { direction: string; state: string }): 'author' | 'circuit' | 'filed' {
  const open =
    doc.direction === 'in' ? doc.state === 'draft' : (AUTHOR_STATES as readonly string[]).includes(doc.state);
  if (open) return 'author';
  return doc.state === 'approving' ? 'circuit' : 'filed';
}

/** What `change` may do to a document in its state (a pure function); throws the 422 saying why not. */
export function contentRule(doc: { direction: string; state: string }, c: ContentChange): ContentVerdict {
  const phase = phaseOf(doc);
  if (phase === 'circuit') throw rule('inCircuit');
  const addition = (kind: AttachmentKind | 'scan') => kind !== 'content' && kind !== 'scan';
  if (phase === 'author') {
    if (c.change === 'attach' && addition(c.kind)) throw rule('additionBeforeApproval');
    return { phase, addition: false, kind: 'content' };
  }
  if (doc.state !== 'approved') {
    // A registered letter: a record whose scans are added, never removed, and whose fields stay.
    switch (c.change) {
      case 'edit':
      case 'delete':
      case 'detach':
        throw rule('notDraft');
      case 'attach':
        if (addition(c.kind)) throw rule('additionBeforeApproval');
        return { phase, addition: false, kind: 'content' };
      default:
        return { phase, addition: false, kind: 'content' };
    }
  }
  // Approved: its content is what was approved; later papers and links are additions.
  switch (c.change) {
    case 'edit':
    case 'delete':
      throw rule('approvedFrozen');
    case 'attach':
      if (c.kind === 'content') throw rule('approvedFrozen');
      return { phase, addition: true, kind: c.kind === 'scan' ? 'signedCopy' : c.kind };
    case 'detach':
      throw rule(c.kind === 'content' ? 'approvedFrozen' : 'additionKept');
    case 'link':
      return { phase, addition: true, kind: 'content' };
    case 'unlink':
      if (c.approvedWith) throw rule('approvedFrozen');
      return { phase, addition: true, kind: 'content' };
  }
}
