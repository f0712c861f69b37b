/**
 * The document form's local draft (issue 14): what is typed is kept on this desk as it is typed, server
 * or not. The address names the local draft the form is writing (?local=<id>, set as soon as it is first
 * kept on this desk): a reload, or the form opened again at that address, resumes it — its kept PDFs
 * included — and the desk's copy wins over the server draft when it holds what the server has not had.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { SetURLSearchParams } from 'react-router-dom';
import type { Document } from '../../../../src-shared/api/correspondence';
import type { LocalDraftDetail } from '../../../../src-shared/ipc/contract';
import { SAME_IN_EVERY_LANGUAGE } from '../../../app/locale';
import { localDrafts } from '../../../lib/local-drafts';
import { localDraftPath, type Family, type FamilyDeclaration } from './directions';
import { fromLocalFields, toLocalFields, type DocumentFormValues } from './documentFields';
import { localDraftKeys } from './keys';

export interface LocalDraftOptions {
  form: FormInstance<DocumentFormValues>;
  family: Family;
  spec: FamilyDeclaration;
  /** The server draft the form continues, if any, and its query. */
  draftId: number | null;
  draft: UseQueryResult<Document>;
  /** The address's ?local= (the local draft it names) and the way to write the address. */
  localParam: string | null;
  setParams: SetURLSearchParams;
}

export function useLocalDraft({
  form,
  family,
  spec,
  draftId,
  draft,
  localParam,
  setParams,
}: LocalDraftOptions) {
  const localId = useRef<string | null>(localParam);
  /** The local draft to resume: the one the address named when the form opened (or was sent to). */
  const [resumeId, setResumeId] = useState<string | null>(localParam);
  const [localSavedAt, setLocalSavedAt] = useState<string | null>(null);
  /** Files kept on this desk by an earlier session of this local draft (sent by the drafts' sync). */
  const [localFiles, setLocalFiles] = useState<LocalDraftDetail['fileList']>([]);
  /** Chosen files also kept on this desk: the file → its local id. */
  const keptFiles = useRef(new Map<File, string>());
  /** The same, for what the list shows (a chosen file kept on this desk says so). */
  const [kept, setKept] = useState<ReadonlySet<File>>(new Set());
  const autosave = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    // The address changed to another local draft (or none): that one is resumed. The form's own writes
    // of the address (below) name the draft it holds already, and load nothing.
    if (localParam === localId.current) return;
    localId.current = localParam;
    setResumeId(localParam);
    setLocalFiles([]);
  }, [localParam]);
  const local = useQuery({
    queryKey: localDraftKeys.one(resumeId),
    queryFn: () => localDrafts.get(resumeId!),
    enabled: resumeId !== null,
    staleTime: Infinity,
    gcTime: 0,
    meta: SAME_IN_EVERY_LANGUAGE,
  });
  // The desk's copy wins over the server's when it holds what the server has not had yet (changed here
  // since it was sent, never sent, refused, in conflict), and when the server cannot be read now.
  const resumeLocal =
    local.data !== undefined &&
    (draftId === null || local.data.dirty || local.data.state !== 'synced' || draft.isError);
  useEffect(() => {
    if (!local.data || !resumeLocal) return;
    if (draftId !== null) form.resetFields(); // the server's values gone: the desk's copy is the draft
    form.setFieldsValue(fromLocalFields(local.data.fields));
    setLocalFiles(local.data.fileList);
    // Applied when a draft is resumed, not again as the form goes on (draftId set by a save, say): the
    // clerk's typing since is the draft.
  }, [local.data, resumeLocal]);

  /** Stops a keep-on-the-desk still waiting for its moment. */
  const cancelAutosave = () => {
    if (autosave.current) clearTimeout(autosave.current);
    autosave.current = null;
  };
  /** Keeps the form's fields on this desk now (a new local draft the first time); answers its id. */
  const saveLocally = async (release = false): Promise<string> => {
    cancelAutosave();
    // Measured (bench/drafts/typing.ts): the part on this thread, and the round trip through main.
    const started = performance.now();
    const values = form.getFieldsValue(true) as DocumentFormValues;
    const saving = localDrafts.save({
      ...(localId.current ? { id: localId.current } : {}),
      direction: spec.direction,
      fields: toLocalFields(values, family),
      ...(draftId !== null ? { serverId: draftId } : {}),
      ...(draftId !== null && draft.data ? { serverVersion: draft.data.version } : {}),
      ...(release ? { release: true } : {}),
    });
    performance.measure('sijill:autosave:thread', { start: started, end: performance.now() });
    const saved = await saving;
    performance.measure('sijill:autosave:roundtrip', { start: started, end: performance.now() });
    if (localId.current !== saved.id) {
      localId.current = saved.id;
      nameLocalDraft(saved.id);
    }
    setLocalSavedAt(saved.updatedAt);
    return saved.id;
  };
  /** Puts the local draft's id in the address (replacing it: Back still leaves the form). */
  const nameLocalDraft = (id: string) =>
    mounted.current &&
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('local', id);
        return next;
      },
      { replace: true },
    );
  /** A server draft's address, still naming the local draft that keeps its changes on this desk. */
  const draftAddress = (id: number) =>
    localId.current ? localDraftPath(spec, localId.current, id) : spec.draftPath(id);
  /**
   * Whether the form is still on screen. A save outlives the form when the clerk leaves while it is on
   * its way; the address it then writes (the local draft's id, the server draft's) would take them back
   * to the form they left, so it is written only while the form is here.
   */
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  /** As the clerk types: saved a moment after the last keystroke (never on every key). */
  const onValuesChange = () => {
    if (autosave.current) clearTimeout(autosave.current);
    autosave.current = setTimeout(() => void saveLocally(false).catch(() => {}), 800);
  };
  useEffect(
    () => () => {
      if (autosave.current) clearTimeout(autosave.current);
    },
    [],
  );
  /** A chosen file kept on this desk too (its local id), for the list to say so. */
  const rememberKept = (file: File, keptId: string) => {
    keptFiles.current.set(file, keptId);
    setKept((files) => new Set(files).add(file));
  };

  return {
    localId,
    resumeLocal,
    localSavedAt,
    localFiles,
    setLocalFiles,
    keptFiles,
    kept,
    rememberKept,
    saveLocally,
    draftAddress,
    mounted,
    onValuesChange,
    cancelAutosave,
  };
}

export type LocalDraft = ReturnType<typeof useLocalDraft>;
