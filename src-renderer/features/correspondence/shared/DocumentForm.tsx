/**
 * The one form of a correspondence document, for every direction (what differs is declared in
 * directions.ts): incoming mail (/correspondence/inbox/add, a draft continued with ?draft={id}), outgoing
 * letters (/correspondence/outbox/add, a draft at /correspondence/outbox/draft/{id}, a reply to an incoming
 * letter with ?replyTo={id}) and memos (/correspondence/memos/add, /correspondence/memos/draft/{id}).
 * Once what is typed is kept on this desk, the address also names that local draft (?local={id}): the
 * form reopened there — reloaded, with the server away or not — resumes it, its kept PDFs included.
 * "Save draft" keeps it without a number. Incoming is finished by "Register" (the archive office gives its
 * number); outgoing letters and memos by "Submit for approval", which shows the proposed circuit for the
 * author to adjust, then sends it. Attachments are PDFs checked by content and size before they are sent.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  List,
  Progress,
  Result,
  Space,
  Typography,
  Upload,
} from 'antd';
import type { Rule } from 'antd/es/form';
import {
  AuditOutlined,
  DeleteOutlined,
  EyeOutlined,
  FilePdfOutlined,
  LinkOutlined,
  PaperClipOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import type {
  CreateDocumentRequest,
  Document,
  RelatedDocument,
} from '../../../../src-shared/api/correspondence';
import type { LocalDraftDetail, LocalDraftFields } from '../../../../src-shared/ipc/contract';
import { useSession } from '../../../app/session';
import { SAME_IN_EVERY_LANGUAGE } from '../../../app/locale';
import { localDrafts } from '../../../lib/local-drafts';
import { formatDateTime } from '../../../lib/format';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { usePdfPreview, warmPdfViewer } from '../../../components/pdf/PdfPreview';
import { contentHash } from '../../../lib/content-hash';
import { fileSource } from '../../../lib/files';
import { DATE_FORMAT } from '../../../components/DataTable';
import { formatSize, pdfFileProblem } from '../../../components/upload/transfer';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { useCan } from '../../../lib/usePermission';
import { useUploadLimit } from '../../../lib/upload-limit';
import { toast, userAction } from '../../../lib/toast';
import { nameList } from '../../../lib/names';
import { CircuitDialog } from './CircuitDialog';
import { corrKeys, documentsApi } from './api';
import { FAMILIES, localDraftPath, type Family, type FormField } from './directions';
import { DepartmentSelect, DepartmentsSelect } from './pickers';
import { RelatedSelect } from './RelatedSelect';
import { SettingSelect } from './SettingSelect';

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
  grouping?: string;
  relatedIds?: number[];
}

const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
const day = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : null);

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
    grouping: text(values.grouping),
  };
  if (family === 'in')
    return {
      ...common,
      senderDepartmentId: values.senderDepartmentId ?? null,
      senderDocumentNumber: text(values.senderDocumentNumber),
      receiver: text(values.receiver),
      receivedDate: day(values.receivedDate),
      recipientDepartmentId: values.recipientDepartmentId ?? null,
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
function toLocalFields(values: DocumentFormValues, family: Family): LocalDraftFields {
  const fields: Record<string, unknown> = { ...toDocumentFields(values, family) };
  if (values.relatedIds?.length) fields.relatedIds = values.relatedIds;
  for (const [key, value] of Object.entries(fields))
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) delete fields[key];
  return fields as LocalDraftFields;
}

/** A local draft's fields as the form's values (reopening it). */
function fromLocalFields(fields: Record<string, unknown>): DocumentFormValues {
  const date = (value: unknown) => (typeof value === 'string' ? dayjs(value) : null);
  return {
    ...(fields as DocumentFormValues),
    documentDate: date(fields.documentDate),
    receivedDate: date(fields.receivedDate),
  };
}

/** A document's fields as the form's values (continuing a draft). */
function toFormValues(doc: Document): DocumentFormValues {
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
    grouping: doc.grouping ?? '',
    relatedIds: doc.related.map((r) => r.id),
  };
}

/** The form screen of a family; `draftId` continues a draft (else ?draft= for incoming). */
export function DocumentForm({ family, draftId: givenDraftId }: { family: Family; draftId?: number }) {
  const uploadLimit = useUploadLimit();
  const spec = FAMILIES[family];
  const { t, i18n } = useTranslation('correspondence');
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [createdId, setCreatedId] = useState<number | null>(null);
  const draftId = givenDraftId ?? (Number(params.get('draft')) || createdId || null);
  const replyTo = Number(params.get('replyTo')) || null;
  // Local drafts (issue 14): the form keeps what is typed on this desk as it is typed, server or not.
  const session = useSession();
  const offline = session.offline;
  // The address names the local draft the form is writing (?local=<id>, set as soon as it is first kept
  // on this desk): a reload, or the form opened again at that address, resumes it — server or not.
  const localParam = params.get('local');
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
  const [form] = useLocalisedForm<DocumentFormValues>();
  const finishing = useRef(false);
  const [busy, setBusy] = useState<'draft' | 'finish' | null>(null);
  const [pending, setPending] = useState<File[]>([]);
  /** Chosen files whose content other documents the user may see already hold, with those documents. */
  const [holders, setHolders] = useState<Map<File, RelatedDocument[]>>(new Map());
  /** Documents linked instead of attaching a file again (their labels for the related select). */
  const [linkedInstead, setLinkedInstead] = useState<RelatedDocument[]>([]);
  const [progress, setProgress] = useState<Map<File, number>>(new Map());
  const [finished, setFinished] = useState<Document | null>(null);
  const [circuitFor, setCircuitFor] = useState<Document | null>(null);
  const preview = usePdfPreview();

  const draft = useQuery({
    queryKey: corrKeys.document(draftId ?? 0),
    queryFn: () => documentsApi.get(draftId!),
    enabled: draftId !== null,
    // The form is seeded from it: a change of language does not read it again over the user's typing.
    meta: SAME_IN_EVERY_LANGUAGE,
  });
  // A reply starts from the incoming letter: related to it, addressed to its sender.
  const original = useQuery({
    queryKey: corrKeys.document(replyTo ?? 0),
    queryFn: () => documentsApi.get(replyTo!),
    enabled: replyTo !== null && draftId === null,
  });
  useEffect(() => {
    // The address changed to another local draft (or none): that one is resumed. The form's own writes
    // of the address (below) name the draft it holds already, and load nothing.
    if (localParam === localId.current) return;
    localId.current = localParam;
    setResumeId(localParam);
    setLocalFiles([]);
  }, [localParam]);
  const local = useQuery({
    queryKey: ['local-draft', resumeId],
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
    if (draft.data && !resumeLocal) form.setFieldsValue(toFormValues(draft.data));
  }, [draft.data, resumeLocal, form]);
  useEffect(() => {
    if (!local.data || !resumeLocal) return;
    if (draftId !== null) form.resetFields(); // the server's values gone: the desk's copy is the draft
    form.setFieldsValue(fromLocalFields(local.data.fields));
    setLocalFiles(local.data.fileList);
    // Applied when a draft is resumed, not again as the form goes on (draftId set by a save, say): the
    // clerk's typing since is the draft.
  }, [local.data, resumeLocal]);

  /** Keeps the form's fields on this desk now (a new local draft the first time); answers its id. */
  const saveLocally = async (release = false): Promise<string> => {
    if (autosave.current) clearTimeout(autosave.current);
    autosave.current = null;
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
  /** A chosen file is kept on this desk too, so a crash or a closed client never loses it. */
  const keepLocally = async (file: File) => {
    try {
      const id = localId.current ?? (await saveLocally(false));
      const kept = await localDrafts.keepFile(id, file);
      keptFiles.current.set(file, kept.id);
      setKept((files) => new Set(files).add(file));
    } catch {
      // the file stays in the form; the server gets it when the draft is saved
    }
  };
  useEffect(() => {
    if (draftId === null) {
      form.resetFields();
      form.setFieldsValue(family === 'in' ? { receivedDate: dayjs() } : { documentDate: dayjs() });
    }
  }, [draftId, form, family]);
  // Seeded once per letter replied to: a change of language (a new `t`) does not undo the user's typing.
  const repliedTo = useRef<number | null>(null);
  useEffect(() => {
    if (!original.data || draftId !== null || repliedTo.current === original.data.id) return;
    repliedTo.current = original.data.id;
    form.setFieldsValue({
      subject: t('reply.subject', { subject: original.data.subject }),
      relatedIds: [original.data.id],
      recipientIds: original.data.sender ? [original.data.sender.id] : [],
    });
  }, [original.data, draftId, form, t]);

  // Required always (subject) or only when finishing (the family's required fields).
  const requiredRule = (always = false): Rule => ({
    validator: async (_rule, value: unknown) => {
      if (!always && !finishing.current) return;
      const blank =
        value === undefined ||
        value === null ||
        (typeof value === 'string' && !value.trim()) ||
        (Array.isArray(value) && value.length === 0);
      if (blank) throw new Error(t('validation.required'));
    },
  });
  const maxRule = (max: number): Rule => ({ max, message: t('validation.maxLength', { max }) });
  const needed = (field: FormField) => spec.required.includes(field);
  const rulesOf = (field: FormField, max?: number): Rule[] => [
    ...(needed(field) ? [requiredRule()] : []),
    ...(max ? [maxRule(max)] : []),
  ];

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
  const documentList = (docs: readonly RelatedDocument[]) =>
    nameList(
      docs.map((d) => d.docNumber ?? `#${d.id}`),
      i18n.language,
    );

  /** Saves the draft (creating it the first time) with its attachments; answers it. */
  const saveDraft = async (values: DocumentFormValues): Promise<Document> => {
    const fields = toDocumentFields(values, family);
    let doc: Document;
    // The desk's copy may already have become a server draft (sent by itself while the form was open):
    // claim it, so it is not sent again meanwhile, and update that draft rather than make a second.
    let serverId = draftId;
    if (localId.current) {
      const claimed = await localDrafts.claim(localId.current).catch(() => null);
      serverId ??= claimed?.serverId ?? null;
    }
    if (serverId !== null && serverId !== draftId) {
      doc = await documentsApi.update(serverId, fields);
      const before = new Set(doc.related.map((r) => r.id));
      const added = (values.relatedIds ?? []).filter((id) => !before.has(id));
      if (added.length > 0) await documentsApi.relate(serverId, added);
    } else if (draftId) {
      doc = await documentsApi.update(draftId, fields);
      const before = new Set(draft.data?.related.map((r) => r.id));
      const added = (values.relatedIds ?? []).filter((id) => !before.has(id));
      if (added.length > 0) await documentsApi.relate(draftId, added);
    } else {
      const body: CreateDocumentRequest = {
        direction: spec.direction,
        ...fields,
        relatedIds: values.relatedIds ?? [],
        register: false,
      };
      doc = await documentsApi.create(body);
    }
    // One file after another, each with its progress; a file sent leaves the list at once, so a failure
    // (the server names it) keeps only what is still to send, and trying again never sends a file twice.
    const sending = [...pending];
    for (const file of sending) {
      const uploaded = await documentsApi.uploadAttachment(doc.id, file, (sent, total) =>
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
    const saved = sending.length ? await documentsApi.get(doc.id) : doc;
    // The server has it all now: the desk's copy records the server's id and version.
    if (localId.current) {
      await localDrafts.settled(localId.current, saved.id, saved.version).catch(() => {});
      keptFiles.current.clear();
    }
    return saved;
  };

  /** Saving while the server is away: kept on this desk, sent by itself when the server is back. */
  const keepUntilOnline = async () => {
    // Released: the form no longer sends it itself, the desk sends it when the server is back.
    await saveLocally(true);
    toast({ severity: 'info', detail: t('local.keptOffline') });
  };

  /**
   * Saving is one user action however many calls it makes (the draft, its related documents, each file,
   * the registration): one toast at most. Finishing shows its outcome itself (the "registered" heading,
   * or the circuit dialog and then "sent for approval"), so only a failure or advice is toasted then.
   */
  const save = (finish: boolean) => userAction(() => saveNow(finish), { outcomeShown: finish });

  const saveNow = async (finish: boolean) => {
    // This save writes what the form holds: a keep-on-the-desk still waiting for its moment would only
    // mark the draft as changed again after it has been sent (and a pass would send it twice).
    if (autosave.current) clearTimeout(autosave.current);
    autosave.current = null;
    finishing.current = finish;
    try {
      await form.validateFields();
    } catch {
      return;
    } finally {
      finishing.current = false;
    }
    const values = form.getFieldsValue(true) as DocumentFormValues;
    if (offline && !finish) {
      await keepUntilOnline();
      return;
    }
    setBusy(finish ? 'finish' : 'draft');
    // A local draft with files kept on this desk is sent by the drafts' sync (which holds those files).
    if (localId.current && localFiles.length > 0) {
      try {
        const id = await saveLocally(true);
        await localDrafts.sync();
        const sent = await localDrafts.get(id);
        if (sent.state === 'synced' && sent.serverId) {
          void queryClient.invalidateQueries({ queryKey: corrKeys.all });
          // The sync sent every file kept on this desk, those chosen in this form among them.
          setLocalFiles([]);
          setPending((files) => files.filter((f) => !keptFiles.current.has(f)));
          keptFiles.current.clear();
          if (mounted.current) void navigate(draftAddress(sent.serverId), { replace: true });
        } else {
          toast({ severity: 'warn', detail: sent.error ?? t('local.notSentYet') });
        }
      } finally {
        setBusy(null);
      }
      return;
    }
    try {
      let doc = await saveDraft(values);
      if (finish && spec.finish === 'register') {
        doc = await documentsApi.register(doc.id);
        setFinished(doc);
      } else if (finish) {
        setCircuitFor(doc);
      }
      if (!draftId && !finished && mounted.current) {
        if (family === 'in')
          setParams(
            { draft: String(doc.id), ...(localId.current ? { local: localId.current } : {}) },
            { replace: true },
          );
        else if (!finish) void navigate(draftAddress(doc.id), { replace: true });
        else setCreatedId(doc.id);
      }
      void queryClient.invalidateQueries({ queryKey: corrKeys.all });
    } catch (error) {
      if (
        (error as { code?: string }).code === 'ipc.serverUnreachable' ||
        (error as { status?: number }).status === 502
      )
        await keepUntilOnline().catch(() => {});
      else applyServerErrors(form, error);
    } finally {
      setBusy(null);
    }
  };

  const hasFiles = (draft.data?.attachments.length ?? 0) > 0 || pending.length > 0;
  useEffect(() => {
    if (hasFiles) warmPdfViewer();
  }, [hasFiles]);

  if (finished) {
    const submitted = finished.state !== 'registered';
    return (
      <CorrespondenceScreen testId={spec.screenTestId}>
        <Card>
          <Result
            status="success"
            title={submitted ? t('circuit.submittedTitle') : t('add.registeredTitle')}
            subTitle={
              submitted ? (
                <span data-testid="submitted-note">{t('circuit.submittedNote')}</span>
              ) : (
                <span data-testid="registered-number">
                  {t('add.registeredNumber')} <bdi className="corr-number">{finished.docNumber}</bdi>
                </span>
              )
            }
            extra={[
              <Button
                key="open"
                type="primary"
                onClick={() =>
                  void navigate(
                    submitted ? `${spec.awaitingPath}/${finished.id}` : `${spec.listPath}/${finished.id}`,
                  )
                }
                data-testid="registered-open"
              >
                {t('add.openDocument')}
              </Button>,
              <Button
                key="another"
                onClick={() => {
                  setFinished(null);
                  setCreatedId(null);
                  if (family === 'in') setParams({}, { replace: true });
                  else void navigate(spec.addPath);
                  form.resetFields();
                }}
              >
                {t(`add.another_${family}`)}
              </Button>,
            ]}
          />
        </Card>
      </CorrespondenceScreen>
    );
  }

  const attachments = draft.data?.attachments ?? [];
  /** Opens an attachment in the viewer: a saved one from the file source, a chosen one from its bytes. */
  const show = async (row: { key: string; name: string; saved: number | null }) => {
    if (row.saved !== null && draftId)
      preview.show({
        fileName: row.name,
        source: fileSource(`/correspondence/documents/${draftId}/attachments/${row.saved}/content`),
      });
    else {
      const file = pending[Number(row.key.slice(1))];
      if (file)
        preview.show({ fileName: row.name, source: { data: new Uint8Array(await file.arrayBuffer()) } });
    }
  };
  const returned = draft.data?.approval?.steps
    .flatMap((s) => s.members)
    .filter((m) => m.decision === 'changesRequested' || m.decision === 'rejected');
  const field = (name: FormField) => {
    switch (name) {
      case 'senderDepartmentId':
        return (
          <Form.Item key={name} name={name} label={t('fields.sender')} required rules={rulesOf(name)}>
            <DepartmentSelect
              type="external"
              testId="field-sender"
              placeholder={t('form.senderPlaceholder')}
            />
          </Form.Item>
        );
      case 'senderDocumentNumber':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.senderDocumentNumber')}
            rules={rulesOf(name, 100)}
          >
            <Input dir="auto" data-testid="field-sender-number" />
          </Form.Item>
        );
      case 'recipientDepartmentId':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.recipientDepartment')}
            required
            rules={rulesOf(name)}
          >
            <DepartmentSelect
              type="internal"
              testId="field-recipient"
              placeholder={t('form.recipientPlaceholder')}
            />
          </Form.Item>
        );
      case 'receiver':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t(family === 'out' ? 'fields.addressee' : 'fields.receiver')}
            rules={rulesOf(name, 200)}
          >
            <Input data-testid="field-receiver" />
          </Form.Item>
        );
      case 'departmentId':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.senderDepartment')}
            extra={t('form.departmentDefault')}
            rules={rulesOf(name)}
          >
            <DepartmentSelect
              type="internal"
              testId="field-department"
              placeholder={t('form.ownDepartment')}
            />
          </Form.Item>
        );
      case 'recipientIds':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t(family === 'out' ? 'fields.receivers' : 'fields.recipientDepartments')}
            required
            rules={rulesOf(name)}
            className="corr-form-wide"
          >
            <DepartmentsSelect
              type={spec.recipients ?? undefined}
              testId="field-recipients"
              placeholder={t(family === 'out' ? 'form.receiversPlaceholder' : 'form.recipientsPlaceholder')}
            />
          </Form.Item>
        );
      default:
        return null;
    }
  };

  return (
    <CorrespondenceScreen
      testId={spec.screenTestId}
      title={draftId ? t(`add.draftTitle_${family}`) : undefined}
      subtitle={t(`add.description_${family}`)}
    >
      {returned && returned.length > 0 && draft.data && (
        <Card size="small" className="corr-card corr-returned" data-testid="returned-note">
          <Typography.Text strong>
            {t(draft.data.state === 'rejected' ? 'circuit.rejectedNote' : 'circuit.changesNote')}
          </Typography.Text>
          {returned.map((m) => (
            <Typography.Paragraph key={m.userId} className="corr-timeline-notes">
              <bdi>{i18n.language === 'ar' ? m.nameAr : m.nameEn}</bdi>: {m.comment}
            </Typography.Paragraph>
          ))}
        </Card>
      )}
      <Form
        form={form}
        layout="vertical"
        onValuesChange={onValuesChange}
        data-testid={spec.formTestId}
        disabled={draftId !== null && draft.isLoading}
      >
        <Card title={t(`add.sections.document_${family}`)} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item
              name="codificationId"
              label={t('fields.codification')}
              required
              rules={rulesOf('codificationId')}
            >
              <SettingSelect
                list="codifications"
                direction={spec.direction}
                testId="field-codification"
                name="codificationId"
                required
              />
            </Form.Item>
            <Form.Item
              name="documentDate"
              label={t('fields.documentDate')}
              required={needed('documentDate')}
              rules={rulesOf('documentDate')}
            >
              <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-document-date" />
            </Form.Item>
            {family === 'in' && (
              <Form.Item name="receivedDate" label={t('fields.receivedDate')}>
                <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-received-date" />
              </Form.Item>
            )}
            <Form.Item
              name="subject"
              label={t('fields.subject')}
              required
              rules={[requiredRule(true), maxRule(500)]}
              className="corr-form-wide"
            >
              <Input data-testid="field-subject" />
            </Form.Item>
            <Form.Item
              name="summary"
              label={t(family === 'in' ? 'fields.summary' : 'fields.body')}
              className="corr-form-wide"
              rules={[maxRule(10000)]}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} data-testid="field-summary" />
            </Form.Item>
          </div>
        </Card>
        <Card title={t(`add.sections.parties_${family}`)} className="corr-card">
          <div className="corr-form-grid">{spec.parties.map(field)}</div>
        </Card>
        <Card title={t('add.sections.classification')} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item name="securityLevelId" label={t('fields.securityLevel')}>
              <SettingSelect list="security-levels" testId="field-security-level" />
            </Form.Item>
            <Form.Item name="priorityId" label={t('fields.priority')}>
              <SettingSelect list="priorities" testId="field-priority" />
            </Form.Item>
            <Form.Item name="mediumId" label={t(family === 'in' ? 'fields.medium' : 'fields.mediumOut')}>
              <SettingSelect list="mediums" testId="field-medium" />
            </Form.Item>
            <Form.Item name="grouping" label={t('fields.grouping')} rules={[maxRule(200)]}>
              <Input data-testid="field-grouping" />
            </Form.Item>
            <Form.Item name="relatedIds" label={t('fields.related')} className="corr-form-wide">
              <RelatedSelect
                excludeId={draftId ?? undefined}
                testId="field-related"
                initial={[
                  ...(draft.data?.related ?? (original.data ? [{ ...original.data }] : [])),
                  ...linkedInstead,
                ]}
              />
            </Form.Item>
          </div>
        </Card>
        <Card title={t('fields.attachments')} className="corr-card">
          {/* Drop PDFs here from the desktop or a scanner's folder, or choose them (several at once). */}
          <Upload.Dragger
            accept="application/pdf,.pdf"
            multiple
            showUploadList={false}
            beforeUpload={(file) => chooseFile(file)}
            className="corr-drop"
          >
            <div data-testid="attachment-drop" className="corr-drop-inner">
              <PaperClipOutlined className="corr-drop-icon" />
              <Typography.Text>{t('add.dropFiles')}</Typography.Text>
              <Button icon={<PaperClipOutlined />} data-testid="attachment-choose">
                {t('add.chooseFile')}
              </Button>
            </div>
          </Upload.Dragger>
          <Typography.Paragraph type="secondary" className="corr-hint">
            {t('add.attachmentHint', { maxSize: formatSize(uploadLimit, i18n.language) })}
          </Typography.Paragraph>
          <List
            size="small"
            locale={{ emptyText: t('empty.attachments') }}
            dataSource={[
              ...attachments.map((a) => ({
                key: `a${a.id}`,
                name: a.fileName,
                size: a.size,
                saved: a.id as number | null,
                file: null as File | null,
              })),
              ...pending.map((f, i) => ({
                key: `p${i}`,
                name: f.name,
                size: f.size,
                saved: null as number | null,
                file: f as File | null,
              })),
              ...localFiles.map((f) => ({
                key: `l${f.id}`,
                name: f.name,
                size: f.size,
                saved: null as number | null,
                file: null as File | null,
              })),
            ]}
            renderItem={(row) => (
              <List.Item
                data-testid="attachment-row"
                actions={[
                  <Button
                    key="open"
                    type="text"
                    hidden={row.key.startsWith('l')}
                    icon={<EyeOutlined />}
                    aria-label={t('detail.open', { name: row.name })}
                    data-testid="attachment-open"
                    onClick={() => void show(row)}
                  />,
                  <Button
                    key="remove"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('add.removeFile', { name: row.name })}
                    onClick={async () => {
                      if (row.saved !== null && draftId) {
                        await documentsApi.removeAttachment(draftId, row.saved);
                        void draft.refetch();
                      } else if (row.key.startsWith('l')) {
                        const fileId = row.key.slice(1);
                        if (localId.current) {
                          const left = await localDrafts.removeFile(localId.current, fileId);
                          setLocalFiles(left.fileList);
                        }
                      } else {
                        setPending((files) => files.filter((f, i) => `p${i}` !== row.key));
                        const kept = row.file ? keptFiles.current.get(row.file) : undefined;
                        if (kept && localId.current)
                          void localDrafts.removeFile(localId.current, kept).catch(() => {});
                      }
                    }}
                  />,
                ]}
              >
                <span className="corr-attachment">
                  <FilePdfOutlined />
                  <bdi>{row.name}</bdi>
                  <Typography.Text type="secondary">{formatSize(row.size, i18n.language)}</Typography.Text>
                  {row.key.startsWith('l') ? (
                    <Typography.Text type="warning" data-testid="attachment-kept-locally">
                      {t('local.keptFile')}
                    </Typography.Text>
                  ) : null}
                  {row.saved === null &&
                    !row.key.startsWith('l') &&
                    (row.file && progress.has(row.file) ? (
                      <Progress
                        percent={progress.get(row.file)}
                        size="small"
                        className="corr-upload-progress"
                        data-testid="attachment-progress"
                      />
                    ) : (
                      <Typography.Text type="warning">
                        {t(offline && row.file && kept.has(row.file) ? 'local.keptFile' : 'add.notSentYet')}
                      </Typography.Text>
                    ))}
                  {row.file && holders.has(row.file) && (
                    <span className="corr-already-in" data-testid="attachment-already-in">
                      <Typography.Text type="secondary">
                        {t('add.alreadyIn', { documents: documentList(holders.get(row.file)!) })}
                      </Typography.Text>
                      <Button
                        size="small"
                        icon={<LinkOutlined />}
                        data-testid="attachment-link-instead"
                        onClick={() => linkInstead(row.file!)}
                      >
                        {t('add.linkInstead')}
                      </Button>
                    </span>
                  )}
                </span>
              </List.Item>
            )}
          />
        </Card>
        <Space className="corr-form-actions" wrap>
          <Button
            icon={<SaveOutlined />}
            loading={busy === 'draft'}
            disabled={busy !== null}
            onClick={() => void save(false)}
            data-testid="save-draft"
          >
            {t('add.saveDraft')}
          </Button>
          {spec.finish === 'register' && can('add') && (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'finish'}
              onClick={() => void save(true)}
              data-testid="register"
              disabled={busy !== null || offline}
            >
              {t('add.register')}
            </Button>
          )}
          {spec.finish === 'submit' && (
            <Button
              type="primary"
              icon={<AuditOutlined />}
              loading={busy === 'finish'}
              onClick={() => void save(true)}
              data-testid="submit-for-approval"
              disabled={busy !== null || offline}
            >
              {t('circuit.submit')}
            </Button>
          )}
          {offline ? (
            <Typography.Text type="warning" data-testid="needs-server">
              {t(spec.finish === 'register' ? 'local.registerNeedsServer' : 'local.submitNeedsServer')}
            </Typography.Text>
          ) : null}
          {localSavedAt ? (
            <Typography.Text type="secondary" data-testid="local-saved">
              {t('local.savedAt', { time: formatDateTime(localSavedAt) })}
            </Typography.Text>
          ) : null}
          {draftId !== null && family !== 'in' && draft.data && draft.data.state !== 'draft' && (
            <Link to={`${spec.awaitingPath}/${draftId}`}>{t('circuit.viewCircuit')}</Link>
          )}
        </Space>
      </Form>
      {preview.dialog}
      {circuitFor && (
        <CircuitDialog
          doc={circuitFor}
          onClose={() => setCircuitFor(null)}
          onSubmitted={(doc) => {
            setCircuitFor(null);
            setFinished(doc);
            void queryClient.invalidateQueries({ queryKey: corrKeys.all });
          }}
        />
      )}
    </CorrespondenceScreen>
  );
}
