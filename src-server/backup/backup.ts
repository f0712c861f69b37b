/**
 * Makes a backup folder of an installation, while it runs: the database dumped first (a consistent
 * snapshot, database.ts), then exactly the files the dumped rows name, copied from the store and hashed
 * on the way, the secrets key, and last the manifest (manifest.ts). Why the two agree without stopping
 * anything: a file is in the store before the row naming it commits (uploads, intake parts, final letters,
 * photos all store first), and the store never deletes or changes a file (content-addressed, FileStore has
 * no delete), so every file a snapshot's rows name is there to copy afterwards, whatever is registered or
 * deleted meanwhile. docs/backups.md tells the whole story.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../db/pglite-options';
import type { ServerConfig } from '../config';
import type { PgliteProxy } from '../db/pglite-proxy';
import type { FileStore } from '../storage/files';
import { VERSION } from '../version';
import { dumpPgliteData, dumpPostgres, pgliteFacts, type DumpFacts } from './database';
import { hashFile, MANIFEST_FORMAT, writeManifest, type Manifest, type ManifestEntry } from './manifest';

/**
 * The database a backup reads: PostgreSQL by its URL, or a PGlite already open (the running server's: in
 * this thread, or its worker thread's through a PgliteProxy).
 */
export type BackupSource =
  { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite | PgliteProxy };

export interface BackupOptions {
  /** The backup folder: made, or empty. */
  dir: string;
  source: BackupSource;
  files: FileStore;
  fileStore: 'local' | 's3';
  /** Where secrets.key is (the configuration's DATA_DIR). */
  dataDir: string;
  /** Files copied at once (an S3 store answers each after a round trip). */
  parallel?: number;
  log?: (line: string) => void;
}

/** The folder of a stored file inside a backup, as the local store lays it out. */
export const filePath = (sha256: string) => `files/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;

/** Where an embedded (PGlite) installation keeps its database. */
export const pgliteDir = (dataDir: string) => join(dataDir, 'pgdata');

/**
 * True when PGlite's data folder is open: PGlite writes postmaster.pid on open and removes it on a clean
 * close (so it is also there after a crash, until the server starts and stops once).
 */
export const pgliteInUse = (dataDir: string) => existsSync(join(pgliteDir(dataDir), 'postmaster.pid'));

/** Makes the backup; answers its manifest. Throws (leaving the unfinished folder without a manifest) on failure. */
export async function createBackup(options: BackupOptions): Promise<Manifest> {
  const { dir, source, files } = options;
  const log = options.log ?? (() => undefined);
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length) throw new Error(`${dir} is not empty: a backup goes into a new folder`);
  const createdAt = new Date().toISOString();
  const entries: ManifestEntry[] = [];

  // 1. The database, in one consistent state, and what that state names.
  let facts: DumpFacts;
  let dumpName: string;
  if (source.kind === 'postgres') {
    dumpName = 'database.pgdump';
    facts = await dumpPostgres(source.url, join(dir, dumpName));
  } else {
    dumpName = 'database.pglite.tar';
    const tar = await dumpPgliteData(source.client);
    await writeFile(join(dir, dumpName), tar, { flush: true });
    facts = await pgliteFacts(tar);
  }
  entries.push({ path: dumpName, role: 'database', ...(await hashFile(join(dir, dumpName))) });
  log(`database (${source.kind}) dumped at migration ${facts.migrations.count}`);

  // 2. The files those rows name.
  const wanted = [
    ...facts.files.required.map((sha256) => ({ sha256, required: true })),
    ...facts.files.optional.map((sha256) => ({ sha256, required: false })),
  ];
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const { sha256, required } = wanted[next++]!;
      const path = filePath(sha256);
      try {
        const got = await copyStored(files, sha256, join(dir, ...path.split('/')));
        if (got.sha256 !== sha256)
          problems.push(`${sha256}: damaged in the store (its bytes hash to ${got.sha256})`);
        else entries.push({ path, role: 'file', size: got.size, sha256 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        if (required) problems.push(`${sha256}: missing from the store`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 4 }, worker));
  if (problems.length)
    throw new Error(
      `The file store is missing or has damaged files the database names:\n  ${problems.join('\n  ')}`,
    );
  log(`${entries.length - 1} stored files copied`);

  // 3. The secrets key (it opens the sealed signing certificate and SMTP password: docs/final-letters.md).
  const key = join(options.dataDir, 'secrets.key');
  if (existsSync(key)) {
    await copyFile(key, join(dir, 'secrets.key'));
    await chmod(join(dir, 'secrets.key'), 0o600);
    entries.push({
      path: 'secrets.key',
      role: 'secret',
      secret: true,
      ...(await hashFile(join(dir, 'secrets.key'))),
    });
  } else if (process.env.SIJILL_SECRETS_KEY) {
    log('the secrets key is SIJILL_SECRETS_KEY: keep it with this backup yourself, it is not in the folder');
  }

  // 4. The manifest, last: a folder without one is an unfinished backup.
  entries.sort((a, b) => a.path.localeCompare(b.path));
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    app: 'sijill',
    appVersion: VERSION,
    createdAt,
    database: {
      kind: source.kind,
      path: dumpName,
      migrations: facts.migrations,
      ...(facts.serverVersion ? { serverVersion: facts.serverVersion } : {}),
    },
    fileStore: options.fileStore,
    files: entries,
  };
  await writeManifest(dir, manifest);
  return manifest;
}

/** Streams a stored file to `target`, hashing it on the way. */
async function copyStored(
  files: FileStore,
  sha256: string,
  target: string,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await mkdir(join(target, '..'), { recursive: true });
  try {
    await pipeline(files.open(sha256), tap, createWriteStream(target, { flags: 'wx', flush: true }));
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * The backup of the installation the configuration names, made from outside the server: PostgreSQL while
 * it runs; the embedded PGlite only while no server holds it (refused otherwise: the running server makes
 * its own, POST /admin/backup). Opens and closes what it needs.
 */
export async function backupInstallation(
  config: ServerConfig,
  files: FileStore,
  dir: string,
  log?: (line: string) => void,
): Promise<Manifest> {
  const common = {
    dir,
    files,
    fileStore: config.FILE_STORE === 's3' ? ('s3' as const) : ('local' as const),
    dataDir: config.DATA_DIR,
    ...(log ? { log } : {}),
  };
  if (config.DATABASE_URL)
    return createBackup({ ...common, source: { kind: 'postgres', url: config.DATABASE_URL } });
  const data = pgliteDir(config.DATA_DIR);
  if (!existsSync(join(data, 'PG_VERSION'))) throw new Error(`No embedded database in ${data}.`);
  if (pgliteInUse(config.DATA_DIR))
    throw new Error(
      `The embedded database in ${data} is open (a server is running on it, or did not stop cleanly). ` +
        `Stop the server and run this again, or ask the running server for a backup (POST /admin/backup).`,
    );
  const client = await PGlite.create(data, pgliteOptions({ parsers: false }));
  try {
    return await createBackup({ ...common, source: { kind: 'pglite', client } });
  } finally {
    await client.close();
  }
}
