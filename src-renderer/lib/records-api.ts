/**
 * The records-management calls (issue 31, docs/records.md): files, retention schedules, dispositions and
 * legal holds, typed by the endpoints declared once in src-shared/api/records.ts; the react-query keys the
 * records screens and the document form's file picker share (a lib module: both features use it).
 */
import type {
  CreateFileRequest,
  PlaceHoldRequest,
  ProposeRequest,
  ScheduleRequest,
  UpdateFileRequest,
} from '../../src-shared/api/records';
import { recordsEndpoints as E } from '../../src-shared/api/records';
import { settingsEndpoints } from '../../src-shared/api/settings';
import { fillPath } from '../../src-shared/api/endpoint';
import { call } from './call';
import { downloadFile, saveDownloaded } from '../components/upload/transfer';

export const recordsKeys = {
  all: ['records'] as const,
  files: (q: string, state?: string) => ['records', 'files', q, state ?? ''] as const,
  openFiles: (q: string) => ['records', 'open-files', q] as const,
  fileDocuments: (id: number) => ['records', 'file-documents', id] as const,
  schedules: ['records', 'schedules'] as const,
  due: ['records', 'due'] as const,
  dispositions: ['records', 'dispositions'] as const,
  progress: (id: number) => ['records', 'progress', id] as const,
  codifications: ['records', 'codifications'] as const,
  holds: (active: boolean) => ['records', 'holds', active] as const,
};

/** A file's title in the interface language (the other's when empty). */
export function fileTitle(file: { titleAr: string; titleEn: string }, language: string): string {
  return language === 'en' ? file.titleEn || file.titleAr : file.titleAr || file.titleEn;
}

export const recordsApi = {
  files: (q: string, state?: string) =>
    call(E.listFiles, { query: { ...(q ? { q } : {}), ...(state ? { state } : {}) } }),
  openFiles: (q: string) => call(E.pickFiles, { query: q ? { q } : {} }),
  fileDocuments: (id: number) => call(E.fileDocuments, { params: { id } }),
  moveDocument: (id: number, documentId: number) =>
    call(E.moveDocument, { params: { id }, body: { documentId } }),
  createFile: (body: CreateFileRequest) => call(E.createFile, { body }),
  updateFile: (id: number, body: UpdateFileRequest) => call(E.updateFile, { params: { id }, body }),
  closeFile: (id: number) => call(E.closeFile, { params: { id }, body: {} }),
  reopenFile: (id: number) => call(E.reopenFile, { params: { id } }),
  schedules: () => call(E.listSchedules),
  putSchedule: (codificationId: number, body: ScheduleRequest) =>
    call(E.putSchedule, { params: { codificationId }, body }),
  deleteSchedule: (codificationId: number) => call(E.deleteSchedule, { params: { codificationId } }),
  due: () => call(E.due),
  dispositions: () => call(E.listDispositions),
  /** Where a disposition being carried out stands (its job), without its record. */
  progress: (id: number) => call(E.dispositionProgress, { params: { id } }),
  propose: (body: ProposeRequest) => call(E.propose, { body }),
  approve: (id: number) => call(E.approve, { params: { id } }),
  cancel: (id: number) => call(E.cancel, { params: { id } }),
  execute: (id: number) => call(E.execute, { params: { id } }),
  /** Saves the certificate of destruction (PDF) or the transfer package (.tar.gz) through the browser. */
  download: async (id: number, what: 'certificate' | 'package') =>
    saveDownloaded(await downloadFile(fillPath(E[what].path, { id }))),
  holds: (active: boolean) => call(E.listHolds, { query: active ? { active: 'true' } : {} }),
  placeHold: (body: PlaceHoldRequest) => call(E.placeHold, { body }),
  liftHold: (id: number) => call(E.liftHold, { params: { id } }),
  /** The codifications a schedule is set for (the settings list's active options). */
  codifications: () => call(settingsEndpoints.codifications.options),
  /** Documents the caller may see, searched by subject and numbers (to move into a file or hold). */
};
