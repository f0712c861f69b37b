/**
 * The correspondence screens' react-query cache keys, in one place: a screen's data lives under its key;
 * invalidate the key after a change. Everything under ['correspondence'] goes with `corrKeys.all`.
 * (shared/api.ts re-exports `corrKeys`, where callers have always found it.)
 */
import type { Box, SettingsList } from '../../../../src-shared/api/correspondence';

export const corrKeys = {
  all: ['correspondence'] as const,
  settings: (list: SettingsList) => ['correspondence', 'settings', list] as const,
  settingsOptions: (list: SettingsList) => ['correspondence', 'settings', list, 'options'] as const,
  boxes: ['correspondence', 'boxes'] as const,
  box: (box: Box) => ['correspondence', 'boxes', box] as const,
  document: (id: number) => ['correspondence', 'document', id] as const,
  distribution: (id: number) => ['correspondence', 'document', id, 'distribution'] as const,
  tasks: (id: number) => ['correspondence', 'document', id, 'tasks'] as const,
  timeline: (id: number) => ['correspondence', 'document', id, 'timeline'] as const,
  attachmentText: (id: number, attachmentId: number) =>
    ['correspondence', 'document', id, 'attachment-text', attachmentId] as const,
  /** The circuit proposed for a draft, for its version (a new version asks again). */
  proposal: (id: number, version: number) => ['correspondence', 'document', id, 'proposal', version] as const,
  signatories: (id: number) => ['correspondence', 'document', id, 'signatories'] as const,
  search: (q: string) => ['correspondence', 'search', q] as const,
  counts: ['correspondence', 'boxes', 'counts'] as const,
  approvers: (q: string) => ['correspondence', 'approvers', q] as const,
  /** A letter's final PDF, and its e-mail dispatches (whose answer says whether SMTP is set up). */
  final: (id: number) => ['correspondence', 'document', id, 'final'] as const,
  finalEmail: (id: number) => ['correspondence', 'document', id, 'final', 'email'] as const,
  /** Every document's final PDF (its verification link): asked again when the letter settings change. */
  isFinal: (key: readonly unknown[]) => key[0] === 'correspondence' && key[3] === 'final',
  /** Every document's e-mail dispatches: asked again when the organisation's SMTP settings change. */
  isFinalEmail: (key: readonly unknown[]) =>
    key[0] === 'correspondence' && key[3] === 'final' && key[4] === 'email',
};

/** Local drafts kept on this desk (main's, not the server's: apart from `corrKeys.all`). */
export const localDraftKeys = {
  all: ['local-drafts'] as const,
  /** The list, read again as main's counts change. */
  list: (waiting: number, conflicts: number, failed: number) =>
    ['local-drafts', waiting, conflicts, failed] as const,
  /** One local draft, as the form resumes it. */
  one: (id: string | null) => ['local-draft', id] as const,
};

/** The search screen's answers. */
export const searchKeys = {
  query: (params: string) => ['search', params] as const,
  /** The header box's suggestions for what it holds. */
  suggest: (q: string) => ['search', 'suggest', q] as const,
};
