/**
 * Content-addressed file storage for uploads (employee photos and attachments, correspondence
 * attachments): bytes are stored once under their SHA-256, so the same file uploaded twice takes the
 * space of one and a row in the database only records the hash. `FileStore` is the seam for an
 * S3-compatible store when several servers share one organisation; the local store keeps files under
 * DATA_DIR/files/ab/cd/<sha256>. `list` walks what a store holds (the sweep of bytes no row names,
 * storage/sweep.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/** One stored content as a listing names it. */
export interface StoredEntry {
  sha256: string;
  size: number;
  /** When the bytes were last written: stored, or stored again (a `put` of bytes already there). */
  modifiedAt: Date;
}

/** Where uploaded bytes live. Implementations must be safe to share between servers. */
export interface FileStore {
  /**
   * Stores bytes (once per content) and answers their SHA-256 (hex) and size; `sha256` when the caller
   * computed it already (while receiving them).
   */
  put(bytes: Buffer, sha256?: string): Promise<{ sha256: string; size: number }>;
  /**
   * Stores a finished local file whose SHA-256 the caller computed while receiving it (a streamed upload
   * in `tempDir`), and takes it over: the file is gone afterwards, stored or not. Bytes already stored
   * under that hash stay (or are replaced by the same bytes).
   */
  putFile(path: string, sha256: string): Promise<void>;
  /** A local folder for uploads being received (on the store's disk when it has one, so `putFile` renames). */
  readonly tempDir: string;
  /**
   * Streams stored bytes, or the inclusive byte range `[start, end]` of them (a viewer reading a large
   * PDF a piece at a time); the stream errors when the file is missing.
   */
  open(sha256: string, range?: { start: number; end: number }): Readable;
  /** Reads stored bytes whole (small files: photos). */
  get(sha256: string): Promise<Buffer>;
  /** Whether bytes with this hash are stored. */
  has(sha256: string): Promise<boolean>;
  /**
   * Removes stored bytes for good (a disposition's destruction, docs/records.md); nothing stored under the
   * hash is not an error. The caller makes sure no record still names the hash: content is shared.
   */
  remove(sha256: string): Promise<void>;
  /**
   * Everything stored, in SHA-256 order from after `after`, `batchSize` entries at a time (default 1000):
   * a walk of the folders or a paginated listing, never the whole store in memory. Files being received
   * (`tempDir`) are not listed.
   */
  list(options?: { after?: string; batchSize?: number }): AsyncIterable<StoredEntry[]>;
  /** When the bytes stored under the hash were last written, or null when none are stored. */
  modifiedAt(sha256: string): Promise<Date | null>;
  /**
   * Where stored bytes lie on this machine's disk, for a reader that needs a path (the text reader's
   * child opens the file itself); only stores on the local disk have one. Read only: never written.
   */
  localPath?(sha256: string): string;
  /**
   * Resolves when the store can be written now (the local folder takes a file; the bucket answers),
   * rejects otherwise: the server's readiness (GET /ready, http/ready.ts).
   */
  probe(): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;
const HEX2 = /^[0-9a-f]{2}$/;
/** Entries a listing answers at once unless told. */
export const LIST_BATCH = 1000;

/** A folder's names in order ([] when there is no such folder: an empty store). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** SHA-256 (hex) of bytes. */
export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A FileStore on the local disk under `dir` (created on first write). Writes go to a temporary file in
 * the target folder and are renamed into place, so a crash never leaves a partial file under a hash.
 */
export function createLocalFileStore(dir: string): FileStore {
  const pathOf = (sha256: string) => {
    // The hash comes from the database, but a store must never be a path-traversal primitive.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256.slice(0, 80)}`);
    return join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };
  const tempDir = join(dir, '.incoming');
  const exists = async (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  const putFile = async (path: string, sha256: string) => {
    const target = pathOf(sha256);
    // Same disk (tempDir is inside the store): an atomic rename, never a partial file under a hash. A
    // file already stored under the hash is replaced by the same bytes (a reader holding it open reads
    // on undisturbed); its folder is made only when the rename finds none (two calls, not five).
    try {
      await rename(path, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(dirname(target), { recursive: true });
        await rename(path, target);
      });
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
  };
  return {
    async put(bytes, known) {
      const sha256 = known ?? sha256Of(bytes);
      // Written beside the uploads being received, then renamed into place (putFile).
      const temp = join(tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}.put`);
      await writeFile(temp, bytes, { flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(tempDir, { recursive: true });
        await writeFile(temp, bytes, { flag: 'wx' });
      });
      await putFile(temp, sha256);
      return { sha256, size: bytes.length };
    },
    tempDir,
    putFile,
    open: (sha256, range) =>
      createReadStream(pathOf(sha256), range ? { start: range.start, end: range.end } : undefined),
    get: (sha256) => readFile(pathOf(sha256)),
    has: (sha256) => exists(pathOf(sha256)),
    remove: (sha256) => rm(pathOf(sha256), { force: true }),
    localPath: pathOf,
    async *list(options = {}) {
      const after = options.after ?? '';
      const size = Math.max(1, options.batchSize ?? LIST_BATCH);
      let batch: StoredEntry[] = [];
      // ab/cd/<sha256>, each level in order: one leaf folder's names in memory at a time (a few hundred
      // even with millions stored). `.incoming` and anything else not named like a hash is passed over.
      for (const ab of await namesIn(dir)) {
        if (!HEX2.test(ab) || ab < after.slice(0, 2)) continue;
        for (const cd of await namesIn(join(dir, ab))) {
          if (!HEX2.test(cd) || ab + cd < after.slice(0, 4)) continue;
          for (const name of await namesIn(join(dir, ab, cd))) {
            if (!SHA256.test(name) || !name.startsWith(ab + cd) || name <= after) continue;
            const info = await stat(join(dir, ab, cd, name)).catch((error: NodeJS.ErrnoException) => {
              if (error.code === 'ENOENT') return null; // removed meanwhile
              throw error;
            });
            if (!info?.isFile()) continue;
            batch.push({ sha256: name, size: info.size, modifiedAt: info.mtime });
            if (batch.length >= size) {
              yield batch;
              batch = [];
            }
          }
        }
      }
      if (batch.length) yield batch;
    },
    async modifiedAt(sha256) {
      try {
        return (await stat(pathOf(sha256))).mtime;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async probe() {
      await mkdir(tempDir, { recursive: true });
      const probe = join(tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}.probe`);
      await writeFile(probe, '', { flag: 'wx' });
      await rm(probe, { force: true });
    },
  };
}
