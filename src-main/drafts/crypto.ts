/**
 * Local drafts at rest: their content and files are encrypted with one key per desk (AES-256-GCM), and
 * that key is kept by the operating system's store — the same protection as the session token. The
 * desktop wraps it with Electron's safeStorage (DPAPI, the Keychain, libsecret or kwallet); plain Node
 * (the web shell, the headless tools, tests) keeps it in a file only its owner may read, like its token.
 *
 * Records: `1 | iv (12) | tag (16) | ciphertext`, with the draft's id as additional data, so a record
 * cannot be moved onto another draft. Files: `1 | iv (12) | ciphertext | tag (16)`, written and read as
 * streams (a 200 MB scan is never whole in memory); the tag is checked when the stream ends.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, renameSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeFileAtomic } from '../services/session-vault';

const VERSION = 1;
const IV = 12;
const TAG = 16;

/** Wraps and unwraps the desk's key with the operating system's store. */
export interface KeyProtector {
  /** What protects the key (`file`, `dpapi`, `keychain`, `gnome_libsecret`, …). */
  readonly backend: string;
  wrap(key: Buffer): Buffer;
  unwrap(wrapped: Buffer): Buffer;
}

/** Plain Node: the key as it is, in a file of mode 0600 (the web shell keeps its token the same way). */
export const fileProtector: KeyProtector = {
  backend: 'file',
  wrap: (key) => Buffer.from(key),
  unwrap: (wrapped) => Buffer.from(wrapped),
};

interface KeyFile {
  v: 1;
  backend: string;
  key: string;
}

/**
 * The desk's drafts key at `path`, made on first use. A key that cannot be read back (another keyring,
 * a damaged file) is set aside under a new name — never overwritten, in case the keyring comes back —
 * and a new key is made; drafts sealed with the old one then read as unreadable (and can be deleted).
 */
export function loadDraftKey(path: string, protector: KeyProtector): Buffer {
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
    if (stored?.v === 1 && stored.backend === protector.backend && typeof stored.key === 'string') {
      const key = protector.unwrap(Buffer.from(stored.key, 'base64'));
      if (key.length === 32) return key;
    }
    renameSync(path, `${path}.unreadable-${Date.now()}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      try {
        renameSync(path, `${path}.unreadable-${Date.now()}`);
      } catch {
        // nothing to set aside
      }
    }
  }
  const key = randomBytes(32);
  const file: KeyFile = { v: 1, backend: protector.backend, key: protector.wrap(key).toString('base64') };
  writeFileAtomic(path, JSON.stringify(file));
  return key;
}

/** Seals a record (JSON text) for the draft `aad`. */
export function seal(key: Buffer, plain: string, aad: string): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Opens a sealed record; throws when it was sealed with another key, for another draft, or altered. */
export function unseal(key: Buffer, sealed: Buffer, aad: string): string {
  if (sealed.length < 1 + IV + TAG || sealed[0] !== VERSION) throw new Error('Not a sealed draft record');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + IV));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(1 + IV, 1 + IV + TAG));
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV + TAG)), decipher.final()]).toString('utf8');
}

/**
 * Encrypts a stream into `path` (through a temporary name, renamed when complete, so a crash leaves no
 * half file under the real name); `onPlain` sees every plain chunk (hashing, counting).
 */
export async function sealFile(
  key: Buffer,
  source: Readable,
  path: string,
  aad: string,
  onPlain?: (chunk: Buffer) => void,
): Promise<void> {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const temp = `${path}.part`;
  const out = createWriteStream(temp, { mode: 0o600 });
  out.write(Buffer.from([VERSION]));
  out.write(iv);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onPlain?.(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, tap, cipher, out, { end: false });
  out.end(cipher.getAuthTag());
  await once(out, 'finish');
  renameSync(temp, path);
}

/**
 * Decrypts a sealed file as a stream. The tag is read first; the stream errors at its end if the file
 * was altered or sealed with another key, so a consumer never takes a tampered file for a whole one.
 */
export async function openSealedFile(key: Buffer, path: string, aad: string): Promise<Readable> {
  const handle = await open(path, 'r');
  let size: number;
  const head = Buffer.alloc(1 + IV);
  const tag = Buffer.alloc(TAG);
  try {
    size = (await handle.stat()).size;
    if (size < 1 + IV + TAG) throw new Error('Not a sealed draft file');
    await handle.read(head, 0, head.length, 0);
    await handle.read(tag, 0, TAG, size - TAG);
  } finally {
    await handle.close();
  }
  if (head[0] !== VERSION) throw new Error('Not a sealed draft file');
  const decipher = createDecipheriv('aes-256-gcm', key, head.subarray(1));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  const out = new PassThrough();
  const cipherText = createReadStream(path, { start: 1 + IV, end: size - TAG - 1 });
  pipeline(cipherText, decipher, out).catch((error: unknown) => out.destroy(error as Error));
  return out;
}
