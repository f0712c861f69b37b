/**
 * The renderer's side of local drafts (issue 14): main keeps them (src-main/drafts), sealed, and sends
 * them when the server is there; these calls ask it, and `useLocalDraftCounts` follows main's
 * `drafts:changed` pushes (what waits, what is in conflict, what the server refused).
 */
import { useEffect, useState } from 'react';
import type {
  IpcResult,
  LocalDraftCounts,
  LocalDraftDetail,
  LocalDraftFields,
  LocalDraftList,
  LocalDraftSummary,
} from '../../src-shared/ipc/contract';
import type { Direction } from '../../src-shared/api/correspondence';
import { localDraftFilesPath } from '../../src-shared/files';
import { uploadFile } from '../components/upload/transfer';
import { getBridge } from './bridge';

/** A channel's answer, or an Error carrying its code (for i18n). */
async function call<T>(run: () => Promise<IpcResult<T>>): Promise<T> {
  const result = await run();
  if (!result.ok) throw Object.assign(new Error(result.error.code), { code: result.error.code });
  return result.data;
}

export const localDrafts = {
  list: (): Promise<LocalDraftList> => call(() => getBridge().draftsList()),
  get: (id: string): Promise<LocalDraftDetail> => call(() => getBridge().draftsGet({ id })),
  save: (input: {
    id?: string;
    direction: Direction;
    fields: LocalDraftFields;
    serverId?: number;
    serverVersion?: number;
    release?: boolean;
  }): Promise<LocalDraftSummary> => call(() => getBridge().draftsSave(input)),
  claim: (id: string): Promise<{ serverId: number | null; serverVersion: number | null }> =>
    call(() => getBridge().draftsClaim({ id })),
  settled: (id: string, serverId: number, serverVersion: number): Promise<LocalDraftSummary> =>
    call(() => getBridge().draftsSettled({ id, serverId, serverVersion })),
  removeFile: (id: string, fileId: string): Promise<LocalDraftDetail> =>
    call(() => getBridge().draftsRemoveFile({ id, fileId })),
  remove: (id: string): Promise<LocalDraftList> => call(() => getBridge().draftsDelete({ id })),
  sync: (): Promise<LocalDraftList> => call(() => getBridge().draftsSync()),
  resolve: (id: string, keep: 'mine' | 'theirs'): Promise<LocalDraftList> =>
    call(() => getBridge().draftsResolve({ id, keep })),
  /** Keeps a chosen file with the local draft (streamed to main, sealed there). */
  keepFile: (id: string, file: File): Promise<{ id: string; name: string; size: number }> =>
    uploadFile(localDraftFilesPath(id), file),
};

const NONE: LocalDraftCounts = { waiting: 0, conflicts: 0, failed: 0 };

/** What waits on this desk, kept current by main's pushes. */
export function useLocalDraftCounts(enabled = true): LocalDraftCounts {
  const [counts, setCounts] = useState<LocalDraftCounts>(NONE);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void localDrafts
      .list()
      .then((list) => live && setCounts(list.counts))
      .catch(() => {});
    const stop = getBridge().on('drafts:changed', (next) => setCounts(next));
    return () => {
      live = false;
      stop();
    };
  }, [enabled]);
  return counts;
}
