/**
 * What the station does with files on disk: which names it ignores, which document number a name
 * carries, hashing and the PDF signature check (by bytes), and moving a file to `processed/` or
 * `rejected/` (with a note beside it saying why, in Arabic and English) without overwriting anything.
 *
 * Naming: a file whose name starts with a registration number (`IN-2026-000123.pdf`,
 * `IN-2026-000123 annex.pdf`, `IN-2026-000123_2.pdf`) is attached to that document; any other PDF
 * becomes a new incoming draft named after the file.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, link, mkdir, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { parseRegistrationNumber } from '../../src-shared/numbering';

/** The folders the station keeps inside each watched folder. */
export const PROCESSED = 'processed';
export const REJECTED = 'rejected';

/**
 * System and temporary files nobody scanned: Windows and macOS folder metadata, Office lock files,
 * partial downloads and copies in progress, editor swap files, and hidden files. Nothing else is passed
 * over: every other file is taken or rejected with a note, judged by its bytes whatever its name says (a
 * `.txt`, a `.docx` or a file without extension that is a PDF is a PDF; one that is not is rejected).
 */
const IGNORED_NAMES = new Set(['desktop.ini', 'thumbs.db', 'ehthumbs.db', '.ds_store', 'icon\r']);
const IGNORED_EXTENSIONS = new Set([
  '.tmp',
  '.temp',
  '.part',
  '.partial',
  '.crdownload',
  '.download',
  '.filepart',
  '.swp',
  '.lock',
]);

/** Whether a file is a system or temporary file the station passes over (see above). */
export function isIgnored(name: string): boolean {
  const lower = name.toLowerCase();
  if (IGNORED_NAMES.has(lower)) return true;
  if (lower.startsWith('.') || lower.startsWith('~$') || lower.startsWith('~')) return true;
  if (lower.endsWith('~')) return true;
  return IGNORED_EXTENSIONS.has(extname(lower));
}

/** The registration number a file's name starts with, or null (the file becomes a new draft). */
export function numberInName(name: string): string | null {
  const match = /^([A-Z][A-Z0-9]{0,9}-\d{4}-\d{6,})(?=$|[\s_.()-])/.exec(basename(name));
  if (!match) return null;
  return parseRegistrationNumber(match[1]!) ? match[1]! : null;
}

/**
 * A file's size and, when it is no larger than `wholeMax`, its bytes — read in one go (a scan of a few
 * pages is then checked, hashed and sent from memory, read from disk once). Throws when the file cannot
 * be opened (gone, or held by the program still writing it).
 */
export async function readSmall(
  path: string,
  wholeMax: number,
): Promise<{ size: number; bytes: Buffer | null }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > wholeMax) return { size, bytes: null };
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) break; // shorter than it said: what is there is what it is
      read += bytesRead;
    }
    return { size: read, bytes: read === size ? bytes : bytes.subarray(0, read) };
  } finally {
    await handle.close();
  }
}

/** Whether bytes carry the PDF signature in their first kilobyte (as the server checks it). */
export function pdfSignatureIn(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).toString('latin1').includes('%PDF-');
}

/** SHA-256 (hex) of a file, streamed. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether the file's first kilobyte carries the PDF signature (as the server checks it). */
export async function looksLikePdf(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, 1024, 0);
    return pdfSignatureIn(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * A free path for `name` in `dir`: the name itself, else `name (2).pdf`, `name (3).pdf`… (a scanner
 * that reuses names must never overwrite what was processed before).
 */
export async function freeTarget(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = join(dir, n === 1 ? name : `${stem} (${n})${ext}`);
    if (!(await exists(candidate)) && !(await exists(`${candidate}.txt`))) return candidate;
  }
}

/** Thrown by `moveOnce` when another file holds the target's name. */
export class TargetTaken extends Error {
  readonly code = 'EEXIST';
}

/**
 * Moves `source` to `target`, never overwriting: a hard link then an unlink (fails if the target
 * exists), or a rename where links are not supported. Answers whether the move happened now; when the
 * source is already gone and the target is there, an earlier move finished (a crash in between) and
 * it answers false without error. Another file under the target's name: `TargetTaken`.
 */
export async function moveOnce(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    await unlink(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // The source gone: moved already, when the target is there (a crash between the move and the queue).
      if (!(await exists(source)) && (await exists(target))) return false;
      throw error;
    }
    if (code === 'EEXIST') {
      // Linked before a crash, not yet unlinked: the same file under both names.
      const [a, b] = await Promise.all([stat(source), stat(target)]);
      if (a.ino !== b.ino || a.dev !== b.dev) throw new TargetTaken(`${target} exists`);
      await unlink(source);
      return true;
    }
    // Some shares (SMB, FAT) have no hard links: a rename, checked first.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'ENOSYS') {
      if (await exists(target)) throw new TargetTaken(`${target} exists`);
      await rename(source, target);
    } else throw error;
  }
  return true;
}

/** Writes the note beside a rejected file: why, in Arabic then English. */
export async function writeNote(target: string, text: string): Promise<void> {
  await writeFile(`${target}.txt`, `\uFEFF${text}\n`, 'utf8');
}
