/**
 * A backup folder's manifest (`manifest.json`): what made it (app version, migration level, database
 * kind, time) and every file in the folder with its size and SHA-256, the secrets key flagged as secret.
 * It is written last, so a folder without one is an unfinished backup. `verifyBackup` hashes the folder
 * again against it without restoring anything (docs/backups.md).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';

export const MANIFEST_NAME = 'manifest.json';
/** The manifest's format; a later one that this code cannot read is refused, not guessed at. */
export const MANIFEST_FORMAT = 1;

/** A migration level: how many drizzle migrations were applied, and the last one's `when` (its journal time). */
export const migrationLevelSchema = z.object({
  count: z.number().int().min(0),
  last: z.number().int().nullable(),
});
export type MigrationLevel = z.infer<typeof migrationLevelSchema>;

const entrySchema = z.object({
  /** Relative to the backup folder, `/`-separated. */
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** `database`: the dump; `file`: a file of the store (named by its SHA-256); `secret`: the secrets key. */
  role: z.enum(['database', 'file', 'secret']),
  /** Set on what must be kept as carefully as a password (the secrets key). */
  secret: z.boolean().optional(),
});
export type ManifestEntry = z.infer<typeof entrySchema>;

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  app: z.literal('sijill'),
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    /** `postgres`: a pg_dump in its custom format; `pglite`: PGlite's data folder as a tar (dumpDataDir). */
    kind: z.enum(['postgres', 'pglite']),
    path: z.string(),
    migrations: migrationLevelSchema,
    /** PostgreSQL: the server's version (pg_dump's custom format restores into the same major or later). */
    serverVersion: z.string().optional(),
  }),
  /** The store the files came from (`local` or `s3`); any store restores them. */
  fileStore: z.enum(['local', 's3']),
  files: z.array(entrySchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** SHA-256 (hex) and size of a file, read as a stream. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The absolute path of a manifest entry, refusing one that would leave the folder. */
export function entryPath(dir: string, relative: string): string {
  const root = resolve(dir);
  const path = resolve(root, ...relative.split('/'));
  if (!path.startsWith(root + sep)) throw new Error(`manifest entry outside the backup folder: ${relative}`);
  return path;
}

/** Writes the manifest (through a temporary name, so a half-written one is never taken for a backup). */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const target = join(dir, MANIFEST_NAME);
  await writeFile(`${target}.partial`, `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  await rename(`${target}.partial`, target);
}

/** Reads and checks a backup folder's manifest; throws a readable Error when it is missing or malformed. */
export async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_NAME);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new Error(`${path} is missing: not a backup folder, or an unfinished one`);
    throw error;
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${path} is not a Sijill backup manifest this version reads:\n${parsed.error.issues
        .map((i) => `  ${i.path.join('.')}: ${i.message}`)
        .join('\n')}`,
    );
  return parsed.data;
}

/** What `verifyBackup` found wrong with one file. */
export interface VerifyProblem {
  path: string;
  problem: 'missing' | 'size' | 'sha256';
}

/**
 * Hashes every file the manifest lists again; answers the manifest and the files that are missing or
 * differ (empty: the backup is whole). Restores nothing.
 */
export async function verifyBackup(
  dir: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ manifest: Manifest; problems: VerifyProblem[] }> {
  const manifest = await readManifest(dir);
  const problems: VerifyProblem[] = [];
  let done = 0;
  for (const entry of manifest.files) {
    const got = await hashFile(entryPath(dir, entry.path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR') return null;
      throw error;
    });
    if (!got) problems.push({ path: entry.path, problem: 'missing' });
    else if (got.size !== entry.size) problems.push({ path: entry.path, problem: 'size' });
    else if (got.sha256 !== entry.sha256) problems.push({ path: entry.path, problem: 'sha256' });
    onProgress?.((done += 1), manifest.files.length);
  }
  return { manifest, problems };
}
