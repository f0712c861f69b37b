/**
 * The document form's attachments still to send: PDFs checked by content and size when chosen, kept on
 * this desk too (a crash or a closed client never loses them), looked up by content among documents the
 * user may see (to link those instead), and sent one after another with their progress.
 */
import { useState } from 'react';
import { Upload, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RelatedDocument } from '../../../../src-shared/api/correspondence';
import { contentHash } from '../../../lib/content-hash';
import { localDrafts } from '../../../lib/local-drafts';
import { nameList } from '../../../lib/names';
import { toast } from '../../../lib/toast';
import { pdfFileProblem } from '../../../components/upload/transfer';
import { documentsApi } from './api';
import type { DocumentFormValues } from './documentFields';
import type { LocalDraft } from './useLocalDraft';

export interface AttachmentQueueOptions {
  form: FormInstance<DocumentFormValues>;
  /** The server draft the form continues (its own files are not "already in" another document). */
  draftId: number | null;
  uploadLimit: number;
  local: LocalDraft;
}

export function useAttachmentQueue({ form, draftId, uploadLimit, local }: AttachmentQueueOptions) {
  const { t, i18n } = useTranslation('correspondence');
  const [pending, setPending] = useState<File[]>([]);
  /** Chosen files whose content other documents the user may see already hold, with those documents. */
  const [holders, setHolders] = useState<Map<File, RelatedDocument[]>>(new Map());
  /** Documents linked instead of attaching a file again (their labels for the related select). */
  const [linkedInstead, setLinkedInstead] = useState<RelatedDocument[]>([]);
  const [progress, setProgress] = useState<Map<File, number>>(new Map());

  const documentList = (docs: readonly RelatedDocument[]) =>
    nameList(
      docs.map((d) => d.docNumber ?? `#${d.id}`),
      i18n.language,
    );

  /** A chosen file is kept on this desk too, so a crash or a closed client never loses it. */
  const keepLocally = async (file: File) => {
    try {
      const id = local.localId.current ?? (await local.saveLocally(false));
      const kept = await localDrafts.keepFile(id, file);
      local.rememberKept(file, kept.id);
    } catch {
      // the file stays in the form; the server gets it when the draft is saved
    }
  };

  const chooseFile = async (file: File) => {
    const problem = await pdfFileProblem(file, uploadLimit, i18n.language);
    if (problem) {
      // The page's one toast host (not antd's message, a second one that keeps none of its rules).
      toast({ severity: 'error', detail: problem });
    } else {
      setPending((files) => [...files, file]);
      void findHolders(file);
      void keepLocally(file);
    }
    return Upload.LIST_IGNORE;
  };

  /** Asks, by the file's content hash, whether documents the user may see already hold this file. */
  const findHolders = async (file: File) => {
    try {
      const found = await documentsApi.holders(await contentHash(file), draftId ?? undefined);
      if (found.length > 0) setHolders((map) => new Map(map).set(file, found));
    } catch {
      // Only advice: the upload says the same (alsoIn) if this look-up could not be made.
    }
  };

  /** Links the documents that already hold this file instead of attaching it again. */
  const linkInstead = (file: File) => {
    const docs = holders.get(file) ?? [];
    const current = (form.getFieldValue('relatedIds') as number[] | undefined) ?? [];
    form.setFieldValue('relatedIds', [...new Set([...current, ...docs.map((d) => d.id)])]);
    setLinkedInstead((known) => [...known, ...docs]);
    setPending((files) => files.filter((f) => f !== file));
    setHolders((map) => {
      const next = new Map(map);
      next.delete(file);
      return next;
    });
    toast({
      severity: 'success',
      detail: t('add.linkedInstead', { name: file.name, documents: documentList(docs) }),
    });
  };

  /** Takes a chosen file (the list's row `p{index}`) off the list, and off this desk. */
  const removePending = (key: string, file: File | null) => {
    setPending((files) => files.filter((f, i) => `p${i}` !== key));
    const kept = file ? local.keptFiles.current.get(file) : undefined;
    if (kept && local.localId.current)
      void localDrafts.removeFile(local.localId.current, kept).catch(() => {});
  };

  /** The drafts' sync sent every file kept on this desk: those chosen here leave the list. */
  const dropSentByDesk = () => {
    setPending((files) => files.filter((f) => !local.keptFiles.current.has(f)));
    local.keptFiles.current.clear();
  };

  /** Sends the chosen files to a document; answers how many were sent. */
  const sendAll = async (documentId: number): Promise<number> => {
    // One file after another, each with its progress; a file sent leaves the list at once, so a failure
    // (the server names it) keeps only what is still to send, and trying again never sends a file twice.
    const sending = [...pending];
    for (const file of sending) {
      const uploaded = await documentsApi.uploadAttachment(documentId, file, (sent, total) =>
        setProgress((p) => new Map(p).set(file, total ? Math.round((sent * 100) / total) : 0)),
      );
      // The same file (by content) is already in other documents: say which, so the clerk can relate
      // them (the archive keeps the bytes once either way).
      if (uploaded.alsoIn?.length)
        toast({
          severity: 'info',
          detail: t('add.alsoIn', {
            name: uploaded.fileName,
            documents: documentList(uploaded.alsoIn),
          }),
        });
      setPending((files) => files.filter((f) => f !== file));
      setProgress((p) => {
        const next = new Map(p);
        next.delete(file);
        return next;
      });
    }
    return sending.length;
  };

  return {
    pending,
    holders,
    linkedInstead,
    progress,
    documentList,
    chooseFile,
    linkInstead,
    removePending,
    dropSentByDesk,
    sendAll,
  };
}
