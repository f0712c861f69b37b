/**
 * Files to and from our API for the screens (employee photo and attachments now, correspondence
 * attachments later). The renderer cannot touch the file system and `api:request` carries JSON only, so
 * a chosen File is read into base64 here and sent through `api:upload`; a download comes back through
 * `api:download` as base64 and becomes a Blob URL to show or save. Failures toast and throw ApiError
 * exactly as the http helpers do.
 */
import type { Problem } from '../../../src-shared/api/envelope';
import { getBridge } from '../../lib/bridge';
import { ApiError, errorText, toastFailure } from '../../lib/http';
import { i18n } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { formatSize } from '../../lib/format';
import { fileSource } from '../../lib/files';
import { FILE_NAME_HEADER, isUploadPath, localDraftOfUploadPath } from '../../../src-shared/files';

/** The magic bytes every PDF starts with (`%PDF-`). */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Whether the bytes are a PDF by content, not by name or claimed type. */
export function isPdfBytes(bytes: Uint8Array): boolean {
  return PDF_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Whether bytes name an encryption dictionary (`/Encrypt` and its reference or dictionary, as a trailer
 * or a cross-reference stream carries it): the PDF may need a password to open. Only a hint — a PDF
 * whose password restricts printing or copying opens without one — confirmed by pdf.js (`needsPassword`).
 */
export function namesEncryption(bytes: Uint8Array): boolean {
  return /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(new TextDecoder('latin1').decode(bytes));
}

/** How much of each end of a PDF is looked at for `/Encrypt` (trailers live at the end, a linearized file's first one at the start). */
const TRAILER_ZONE = 64 * 1024;

/**
 * Whether a PDF needs a password to open (it could then be neither read nor archived): its ends are
 * looked at for an encryption dictionary, and only a file naming one is opened by pdf.js (loaded then)
 * to see whether it asks for a password, as the server's check does.
 */
export async function needsPassword(file: Blob): Promise<boolean> {
  const parts =
    file.size <= 2 * TRAILER_ZONE
      ? [file]
      : [file.slice(0, TRAILER_ZONE), file.slice(file.size - TRAILER_ZONE)];
  let named = false;
  for (const part of parts) named ||= namesEncryption(await readBytes(part));
  if (!named) return false;
  const { pdfjs, sharedWorker } = await import('../pdf/pdfjs');
  const task = pdfjs.getDocument({
    data: await readBytes(file),
    worker: sharedWorker(),
    isEvalSupported: false,
    stopAtErrors: false,
  });
  try {
    await task.promise;
    return false;
  } catch (error) {
    return (error as { name?: string } | null)?.name === 'PasswordException';
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

/** Whether the bytes are an image the server accepts (PNG, JPEG, WebP, GIF), by content. */
export function isImageBytes(bytes: Uint8Array): boolean {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  return (
    starts(0x89, 0x50, 0x4e, 0x47) || // PNG
    starts(0xff, 0xd8, 0xff) || // JPEG
    starts(0x47, 0x49, 0x46, 0x38) || // GIF
    (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42) // WebP
  );
}

/** A File's bytes (Blob.arrayBuffer, with a FileReader fallback for older DOMs). */
export async function readBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return new Uint8Array(await file.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

/** Standard base64 of bytes, in chunks so a large file does not overflow the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Bytes of a base64 string. */
export function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export { formatSize };

/** What an upload sends besides the file. */
export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** The multipart field of the file (default `file`). */
  field?: string;
  /** Plain text fields sent with it. */
  fields?: Record<string, string>;
  /** Called as the file's bytes leave (bytes sent, total). */
  onProgress?: (sent: number, total: number) => void;
}

function fail(status: number, body: unknown): never {
  const problem = (body && typeof body === 'object' ? body : {}) as Partial<Problem>;
  const error = new ApiError(status, { ...problem, detail: errorText(status, problem) });
  if (status !== 401) toastFailure(error);
  throw error;
}

/** Sends a File to an API path as multipart/form-data; answers the envelope's data, toasts its message. */
/**
 * The one check of a chosen file before it is sent (specification section 5): below `maxBytes` (size
 * first: no need to read a huge file), then a PDF by its first bytes (`%PDF-`), not by its name, then not
 * locked by a password (said so, with what to do). Answers the sentence to show — naming the file, so a
 * clerk who chose several knows which — or null when fine. The server checks again (415, 413).
 */
export async function pdfFileProblem(
  file: File,
  maxBytes: number,
  language = i18n.language,
): Promise<string | null> {
  const name = file.name;
  if (file.size >= maxBytes)
    return i18n.t('upload.tooLarge', {
      ns: 'common',
      name,
      maxSize: formatSize(maxBytes, language),
      lng: language,
    });
  const head = await readBytes(file.slice(0, 5));
  if (!isPdfBytes(head)) return i18n.t('upload.notPdf', { ns: 'common', name, lng: language });
  return (await needsPassword(file))
    ? i18n.t('upload.encrypted', { ns: 'common', name, lng: language })
    : null;
}

export async function uploadFile<T>(path: string, file: File, options: UploadOptions = {}): Promise<T> {
  // An attachment streams through the file source (no base64, no size cap of the bridge, progress).
  const streamed = isUploadPath(path) || localDraftOfUploadPath(path) !== null;
  if (streamed && !options.fields && (options.method ?? 'POST') === 'POST')
    return streamUpload<T>(path, file, options.onProgress);
  const bytes = await readBytes(file);
  const result = await getBridge().apiUpload({
    method: options.method ?? 'POST',
    path,
    field: options.field ?? 'file',
    fileName: file.name.replace(/[\\/]/g, '_') || 'file',
    mime: file.type || 'application/octet-stream',
    base64: toBase64(bytes),
    ...(options.fields ? { fields: options.fields } : {}),
  });
  if (!result.ok) {
    const detail = i18n.t(result.error.code, { defaultValue: i18n.t('errors.unexpected') });
    toast({ severity: 'error', detail });
    throw new ApiError(0, { detail, code: result.error.code });
  }
  const { status, body } = result.data;
  if (status < 200 || status >= 300) fail(status, body);
  const envelope = (body ?? {}) as { data: T; returnMessage?: string };
  if (envelope.returnMessage) toast({ severity: 'success', detail: envelope.returnMessage });
  return envelope.data;
}

/**
 * Sends a file as the body of a POST to the file source (src-shared/files.ts): main streams it into the
 * API's multipart request. XMLHttpRequest, not fetch, because it reports the upload's progress.
 */
function streamUpload<T>(
  path: string,
  file: File,
  onProgress?: (sent: number, total: number) => void,
): Promise<T> {
  const { url, httpHeaders } = fileSource(path);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(httpHeaders ?? {})) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader(FILE_NAME_HEADER, encodeURIComponent(file.name.replace(/[\\/]/g, '_') || 'file'));
    xhr.setRequestHeader('accept', 'application/json');
    if (onProgress)
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onerror = () => {
      const detail = i18n.t('ipc.serverUnreachable', { defaultValue: i18n.t('errors.unexpected') });
      toast({ severity: 'error', detail });
      reject(new ApiError(0, { detail, code: 'ipc.serverUnreachable' }));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      try {
        if (xhr.status < 200 || xhr.status >= 300) fail(xhr.status, body);
        const envelope = (body ?? {}) as { data: T; returnMessage?: string };
        if (envelope.returnMessage) toast({ severity: 'success', detail: envelope.returnMessage });
        resolve(envelope.data);
      } catch (error) {
        reject(error);
      }
    };
    xhr.send(file);
  });
}

/** A downloaded file: its name and a Blob (make a URL with URL.createObjectURL, revoke it after use). */
export interface DownloadedFile {
  fileName: string;
  mime: string;
  blob: Blob;
}

/** Fetches a file from an API path. */
export async function downloadFile(
  path: string,
  query?: Record<string, string | number | boolean>,
): Promise<DownloadedFile> {
  const result = await getBridge().apiDownload(query ? { path, query } : { path });
  if (!result.ok) {
    const detail = i18n.t(result.error.code, { defaultValue: i18n.t('errors.unexpected') });
    toast({ severity: 'error', detail });
    throw new ApiError(0, { detail, code: result.error.code });
  }
  const { status, body, file } = result.data;
  if (status < 200 || status >= 300 || !file) fail(status, body);
  const bytes = fromBase64(file.base64);
  return {
    fileName: file.fileName,
    mime: file.mime,
    blob: new Blob([bytes as BlobPart], { type: file.mime }),
  };
}

/** Saves a downloaded file through the browser's download (an anchor with `download`). */
export function saveDownloaded(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
