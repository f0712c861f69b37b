/**
 * The file source: how the renderer reads our files (attachments) as a stream, a piece at a time,
 * without their bytes crossing IPC. Both hosts serve it on the renderer's own origin under `/files`
 * (`app://sijill/files/…` in Electron, `http://127.0.0.1:<port>/files/…` in the web shell, which also
 * wants the launch secret in a header): main forwards the request — with the session's token, which the
 * renderer never holds, and the Range headers — to one of the API paths below, and streams the answer
 * back. Nothing else may be read through it.
 */

/** The URL prefix of the file source on the renderer's origin. */
export const FILE_SOURCE_PREFIX = '/files';
/** The header carrying the web shell's launch secret on file requests. */
export const FILE_SOURCE_KEY_HEADER = 'x-sijill-key';

/**
 * The API paths whose bytes the file source serves: the attachments of documents and employees, and a
 * letter's final PDF (stamped and signed).
 */
const FILE_PATHS: readonly RegExp[] = [
  /^\/correspondence\/documents\/[1-9]\d{0,9}\/attachments\/[1-9]\d{0,9}\/content$/,
  /^\/correspondence\/documents\/[1-9]\d{0,9}\/final\/file$/,
  /^\/ec\/employees\/[1-9]\d{0,9}\/attachments\/[1-9]\d{0,9}$/,
];

/** Whether an API path may be read through the file source. */
export function isFilePath(path: string): boolean {
  return FILE_PATHS.some((pattern) => pattern.test(path));
}

/**
 * Request headers passed on to the API (ranges and revalidation, and the token of one view of a file, so
 * that a view read in many ranges is recorded once: src-shared/api/reads.ts), lower-case.
 */
export const FILE_REQUEST_HEADERS = ['range', 'if-range', 'if-none-match', 'x-sijill-read'] as const;
/** Response headers passed back to the renderer, lower-case. */
export const FILE_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'cache-control',
  'content-disposition',
] as const;

/**
 * The API paths a file may be sent to through the file source (POST, the file as the body): the
 * attachments of documents (their content, or an addition after approval) and of employees. Main wraps the
 * body into the multipart request the API takes.
 */
const UPLOAD_PATHS: readonly RegExp[] = [
  /^\/correspondence\/documents\/[1-9]\d{0,9}\/attachments$/,
  /^\/correspondence\/documents\/[1-9]\d{0,9}\/additions\/(signedCopy|deliveryReceipt|other)$/,
  /^\/ec\/employees\/[1-9]\d{0,9}\/attachments$/,
];

/** Whether an API path may receive a file through the file source. */
export function isUploadPath(path: string): boolean {
  return UPLOAD_PATHS.some((pattern) => pattern.test(path));
}

/**
 * Where the form sends a local draft's file (issue 14): kept sealed on this desk by main, never sent to
 * the API from here (the drafts' sync does that later). `<id>` is the local draft's id.
 */
const LOCAL_DRAFT_FILES =
  /^\/local-drafts\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/files$/;

/** The local draft a file-source upload path names, or null when it is not a local draft's. */
export function localDraftOfUploadPath(path: string): string | null {
  return LOCAL_DRAFT_FILES.exec(path)?.[1] ?? null;
}

/** The file-source path a local draft's files are sent to. */
export const localDraftFilesPath = (id: string) => `/local-drafts/${id}/files`;

/** The header carrying the uploaded file's name (URI-encoded: names are Arabic as often as not). */
export const FILE_NAME_HEADER = 'x-sijill-file-name';

/** A size limit as messages show it (e.g. `25 MB`): the server's 413 and the scanning station's notes. */
export function formatMaxSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
