/**
 * Cutting a scanned batch into documents by the codes on its pages (issue 26; the codes and the rules
 * are src-shared/paper-codes.ts). Intake asks for the codes of every page of a file it received (read in
 * the codes child, never on the server's thread), and when they cut the file — a separator or a cover
 * sheet in it, or a sticker naming a document — makes one PDF per part here, with the batch's pages in
 * their order. A file without codes of ours is taken whole, as before.
 *
 * The parts are made deterministically (no dates, no random ids written), so the same batch cut twice
 * gives the same bytes: a batch dropped again is found a duplicate part by part, like any scan.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import {
  cutBatch,
  markOfPage,
  pageRuns,
  type BatchPart,
  type ReadCode,
} from '../../../src-shared/paper-codes';
import { HttpProblem } from '../../http/problem';
import type { ReceivedFile } from '../../http/upload';

/** Reads the codes of every page of a PDF file, in page order (the codes child: search/ocr-process.ts). */
export type PageCodeReader = (file: string, signal?: AbortSignal) => Promise<ReadCode[][]>;

/** One part of a cut batch, made into its own PDF. */
export interface CutPart extends BatchPart {
  bytes: Uint8Array;
  sha256: string;
  /** The part's file name: the batch's, with the pages it holds. */
  fileName: string;
}

/** Pages as a file name or a message carries them: `3-5,8`. */
export const pageRanges = (pages: readonly number[]) =>
  pageRuns(pages)
    .map(([start, end]) => (start === end ? String(start) : `${start}-${end}`))
    .join(',');

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The parts a received file is cut into, or null when it is taken whole (no code of ours on it, or its
 * pages could not be read for codes: a scan is never refused because a code could not be read).
 * Refuses (422) a batch whose codes cannot be followed: a page naming two documents, or nothing but
 * separator sheets.
 */
export async function cutReceived(
  file: ReceivedFile,
  batchName: string,
  options: {
    tempDir: string;
    readCodes: PageCodeReader;
    log?: (message: string) => void;
    /** Aborted when the sender is gone (http/client-gone.ts): the reading stops, and this throws its reason. */
    signal?: AbortSignal | undefined;
  },
): Promise<CutPart[] | null> {
  let path = file.path;
  let temporary: string | null = null;
  let pages: ReadCode[][];
  try {
    if (!path) {
      if (!file.bytes) return null;
      temporary = join(options.tempDir, `codes-${randomUUID()}.pdf`);
      await writeFile(temporary, file.bytes);
      path = temporary;
    }
    try {
      pages = await options.readCodes(path, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      options.log?.(`codes of ${batchName} not read: ${(error as Error).message}`);
      return null;
    }
    const { parts, conflicts } = cutBatch(pages.map(markOfPage));
    if (conflicts.length > 0)
      throw new HttpProblem('unprocessable', {
        code: 'intake.codesConflict',
        detailKey: 'intake.codesConflict',
        params: { pages: pageRanges(conflicts) },
      });
    if (parts.length === 0)
      throw new HttpProblem('unprocessable', {
        code: 'intake.onlySeparators',
        detailKey: 'intake.onlySeparators',
      });
    const [only] = parts;
    if (parts.length === 1 && only!.number === undefined && only!.pages.length === pages.length) return null;
    return await makeParts(file.bytes ?? path, parts, batchName);
  } finally {
    if (temporary) await rm(temporary, { force: true });
  }
}

/** One PDF per part, the batch's pages copied in order. */
async function makeParts(source: Uint8Array | string, parts: BatchPart[], batchName: string) {
  let batch: PDFDocument;
  try {
    batch = await PDFDocument.load(typeof source === 'string' ? await readFile(source) : source, {
      updateMetadata: false,
    });
  } catch {
    // pdf.js read its codes, but the file cannot be taken apart (encrypted, or damaged past what
    // pdf-lib repairs): refused, so that none of its documents is filed half.
    throw new HttpProblem('unprocessable', { code: 'intake.cannotCut', detailKey: 'intake.cannotCut' });
  }
  const base = batchName.replace(/\.pdf$/i, '');
  const made: CutPart[] = [];
  for (const part of parts) {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const copied = await doc.copyPages(
      batch,
      part.pages.map((page) => page - 1),
    );
    for (const page of copied) doc.addPage(page);
    const out = await doc.save({ useObjectStreams: false });
    made.push({
      ...part,
      bytes: out,
      sha256: sha256Of(out),
      fileName: `${base} (${pageRanges(part.pages)}).pdf`,
    });
  }
  return made;
}
