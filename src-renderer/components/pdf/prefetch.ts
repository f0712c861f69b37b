/**
 * The first reads of a PDF from the file source, started the moment the user asks to see it (the click,
 * before the dialog and the viewer are drawn), so the file's first and last pieces are on their way
 * while React mounts the viewer. Light on purpose: no pdf.js here (the viewer is loaded on demand).
 *
 * The first and the last two pieces are asked for at once: the header, and the cross-reference table and
 * trailer pdf.js reads first (they live at the end). One read per URL is kept, taken by the viewer that
 * opens it, and forgotten after PREFETCH_KEEP_MS if no viewer comes.
 */

/** The size of the pieces read from the file source. */
export const PDF_CHUNK = 128 * 1024;
const PREFETCH_KEEP_MS = 30_000;

export interface PdfUrlSource {
  url: string;
  httpHeaders?: Record<string, string>;
}

/** A file's first and last pieces, or null when the source answers no ranges or the file is small. */
export interface PdfEnds {
  length: number;
  head: Uint8Array;
  tail: Uint8Array;
  tailStart: number;
}

/** One range of the file source. */
export const readRange = (source: PdfUrlSource, range: string) =>
  fetch(source.url, { headers: { ...source.httpHeaders, Range: range }, credentials: 'omit' });

async function readEnds(source: PdfUrlSource): Promise<PdfEnds | null> {
  const [head, tail] = await Promise.all([
    readRange(source, `bytes=0-${2 * PDF_CHUNK - 1}`),
    readRange(source, `bytes=-${2 * PDF_CHUNK}`),
  ]);
  const total = /\/(\d+)$/.exec(head.headers.get('content-range') ?? '')?.[1];
  if (head.status !== 206 || tail.status !== 206 || !total || Number(total) <= 4 * PDF_CHUNK) {
    void head.body?.cancel();
    void tail.body?.cancel();
    return null;
  }
  const length = Number(total);
  const tailStart = length - Number(tail.headers.get('content-length') ?? 0);
  const [headBytes, tailBytes] = await Promise.all([head.arrayBuffer(), tail.arrayBuffer()]);
  return { length, head: new Uint8Array(headBytes), tail: new Uint8Array(tailBytes), tailStart };
}

const pending = new Map<string, { ends: Promise<PdfEnds | null>; timer: ReturnType<typeof setTimeout> }>();

/** Starts reading a file's ends (once per URL until taken). Safe to call on every render. */
export function prefetchPdf(source: PdfUrlSource): void {
  if (pending.has(source.url)) return;
  const ends = readEnds(source).catch(() => null);
  const timer = setTimeout(() => pending.delete(source.url), PREFETCH_KEEP_MS);
  pending.set(source.url, { ends, timer });
}

/** The ends of a file: the read started by prefetchPdf when there is one, otherwise a new one. */
export function takePdfEnds(source: PdfUrlSource): Promise<PdfEnds | null> {
  const started = pending.get(source.url);
  if (!started) return readEnds(source);
  pending.delete(source.url);
  clearTimeout(started.timer);
  return started.ends;
}
