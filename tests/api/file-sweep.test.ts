/**
 * The sweep of stored bytes no row names (src-server/storage/sweep.ts), on the local store and on an
 * S3 bucket (@20minutes/s3rver in this process, as in s3-store.test.ts): bytes stored without a row and
 * last written before the grace period are removed, with an audit entry per batch; bytes any kind of row
 * names stay (an attachment uploaded through the API, an employee's file and photo, an intake receipt, a
 * final letter, a disposition's output, a report export still kept), and so do bytes younger than the
 * grace, bytes stored again just now, and files being received. The listings go in SHA-256 order a batch
 * at a time and resume after a hash; the job sweeps and queues the next pass a day later. Every column
 * holding a hash is known: a new one fails here until storage/references.ts reads it.
 */
import crypto, { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src-server/context';
import { createLocalFileStore, sha256Of, type FileStore } from '../../src-server/storage/files';
import { createS3FileStore, type S3FileStore } from '../../src-server/storage/s3';
import { SWEEP_INTERVAL_HOURS, SWEEP_JOB, queueSweep, sweepFiles } from '../../src-server/storage/sweep';
import { REPORT_EXPORT_JOB } from '../../src-server/storage/references';
import { minimalPdf, multipart } from './support/files';
import { startHarness, type Harness } from './support/harness';
import { organisation, registeredLetter, type Org } from './support/correspondence';

const HOUR = 3600_000;

let h: Harness;
let org: Org;
let ctx: ServerContext;
let documentId: number;

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  ctx = {
    db: h.database.db,
    config: h.config,
    files: createLocalFileStore(h.filesDir),
    jobs: h.jobs,
  } as ServerContext;
  documentId = (await registeredLetter(h, org)).id;
});
afterAll(async () => {
  await h?.close();
});

/** Stores fresh random bytes; answers their hash. */
async function stored(files: FileStore = ctx.files): Promise<string> {
  return (await files.put(randomBytes(200 + Math.floor(Math.random() * 200)))).sha256;
}

const pathOf = (sha256: string) => join(h.filesDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
/** Makes a locally stored file look written `hours` ago. */
function age(sha256: string, hours: number) {
  const at = new Date(Date.now() - hours * HOUR);
  utimesSync(pathOf(sha256), at, at);
}

/** Names `sha256` in a row of each kind `unreferenced` knows (storage/references.ts). */
async function nameInEveryKind(): Promise<Record<string, string>> {
  const named: Record<string, string> = {};
  // An attachment uploaded through the API (upload.ts stores the bytes, then writes the row).
  const file = multipart(minimalPdf('named by an attachment'), 'named.pdf', 'application/pdf');
  const up = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { ...file.headers, authorization: `Bearer ${org.clerk.token}` },
    payload: file.payload,
  });
  expect(up.statusCode).toBe(201);
  named.attachment = up.json().data.sha256 as string;

  named.employeeFile = await stored();
  await h.query(
    `insert into employee_attachments (employee_id, sha256, file_name, size, mime)
     values (${org.clerk.employeeId}, '${named.employeeFile}', 'cv.pdf', 1, 'application/pdf')`,
  );
  named.photo = await stored();
  await h.query(`update employees set photo_sha256 = '${named.photo}' where id = ${org.clerk.employeeId}`);
  named.receipt = await stored();
  await h.query(
    `insert into intake_receipts (user_id, key, sha256, document_id)
     values (${org.clerk.userId}, 'sweep-${named.receipt.slice(0, 8)}', '${named.receipt}', ${documentId})`,
  );
  named.finalLetter = await stored();
  await h.query(
    `insert into final_letters (document_id, token, state, sha256)
     values (${documentId}, 'sweep-token', 'done', '${named.finalLetter}')`,
  );
  named.disposition = await stored();
  await h.query(
    `with f as (insert into record_files (code, title_ar, title_en, opened_on)
                values ('SWEEP-1', 'ملف', 'File', '2020-01-01') returning id)
     insert into dispositions (file_id, action, state, legal_reference, output_sha256)
     select id, 'transfer', 'done', 'ref', '${named.disposition}' from f`,
  );
  named.export = await stored();
  const future = new Date(Date.now() + HOUR).toISOString();
  await h.query(
    `insert into background_jobs (kind, payload, state, progress)
     values ('${REPORT_EXPORT_JOB}', '{}'::jsonb, 'done',
             '{"sha256": "${named.export}", "expiresAt": "${future}"}'::jsonb)`,
  );
  return named;
}

describe('the sweep on the local store', () => {
  let named: Record<string, string>;
  const loose = { old: '', young: '', fresh: '', storedAgain: '', expiredExport: '' };

  beforeAll(async () => {
    named = await nameInEveryKind();
    for (const sha256 of Object.values(named)) age(sha256, 24 * 30);
    loose.old = await stored();
    age(loose.old, 25);
    loose.young = await stored();
    age(loose.young, 23);
    loose.fresh = await stored();
    // Stored long ago, then stored again by a writer about to name it: its time is now.
    const bytes = randomBytes(300);
    loose.storedAgain = (await ctx.files.put(bytes)).sha256;
    age(loose.storedAgain, 24 * 10);
    await ctx.files.put(bytes);
    // An export past its expiry names its file no more (its own removal job was lost).
    loose.expiredExport = await stored();
    age(loose.expiredExport, 48);
    const past = new Date(Date.now() - HOUR).toISOString();
    await h.query(
      `insert into background_jobs (kind, payload, state, progress)
       values ('${REPORT_EXPORT_JOB}', '{}'::jsonb, 'done',
               '{"sha256": "${loose.expiredExport}", "expiresAt": "${past}"}'::jsonb)`,
    );
  });

  it('removes only bytes no row names that were last written before the grace period', async () => {
    expect(h.config.SWEEP_GRACE_HOURS).toBe(24);
    // A file being received, old and named by nothing, is not the store's to sweep.
    const incoming = join(ctx.files.tempDir, 'upload-under-way');
    mkdirSync(ctx.files.tempDir, { recursive: true });
    writeFileSync(incoming, 'half an upload');
    const longAgo = new Date(Date.now() - 48 * HOUR);
    utimesSync(incoming, longAgo, longAgo);

    const outcome = await sweepFiles(ctx);
    expect(outcome.next).toBeNull();
    expect(outcome.removed.map((r) => r.sha256).sort()).toEqual([loose.old, loose.expiredExport].sort());
    expect(existsSync(pathOf(loose.old))).toBe(false);
    expect(existsSync(pathOf(loose.expiredExport))).toBe(false);
    for (const [kind, sha256] of Object.entries(named)) {
      expect({ kind, stored: await ctx.files.has(sha256) }).toEqual({ kind, stored: true });
    }
    for (const sha256 of [loose.young, loose.fresh, loose.storedAgain])
      expect(await ctx.files.has(sha256)).toBe(true);
    expect(existsSync(incoming)).toBe(true);

    // One audit entry for the batch: how many, how large, which.
    const audit = await h.query<{ target_type: string; details: Record<string, unknown> }>(
      `select target_type, details from audit_log where action = 'files.swept' order by id`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target_type).toBe('file');
    expect(audit[0]!.details).toMatchObject({ count: 2, store: 'local', graceHours: 24 });
    expect((audit[0]!.details.hashes as string[]).sort()).toEqual([loose.old, loose.expiredExport].sort());
    expect(audit[0]!.details.bytes).toBe(outcome.removed.reduce((sum, r) => sum + r.size, 0));

    // A second pass finds nothing more to take.
    expect((await sweepFiles(ctx)).removed).toEqual([]);
  });

  it('knows every column that names stored bytes (a new one must be added to storage/references.ts)', async () => {
    // The sweep removes what `unreferenced` does not see named: a column holding stored files' hashes
    // that it does not read would lose those files a day after they are stored. Add the new column to
    // `unreferenced` (and to this list) — or, for a column that only records a hash, to the second list.
    const named = [
      'dispositions.output_sha256',
      'document_attachments.sha256',
      'employee_attachments.sha256',
      'employees.photo_sha256',
      'final_letters.sha256',
      'intake_receipts.sha256',
    ];
    const notStoredFiles = ['integrity_failures.found_sha256', 'integrity_failures.sha256'];
    const columns = await h.query<{ name: string }>(
      `select table_name || '.' || column_name as name from information_schema.columns
        where table_schema = current_schema() and column_name like '%sha256%' order by 1`,
    );
    expect(columns.map((c) => c.name)).toEqual([...named, ...notStoredFiles].sort());
  });

  it('lists in SHA-256 order a batch at a time, resuming after a hash', async () => {
    const batches: string[][] = [];
    for await (const batch of ctx.files.list({ batchSize: 3 })) batches.push(batch.map((e) => e.sha256));
    const all = batches.flat();
    expect(all.length).toBeGreaterThan(6);
    expect(batches.slice(0, -1).every((b) => b.length === 3)).toBe(true);
    expect(all).toEqual([...all].sort());
    expect(new Set(all).size).toBe(all.length);
    const after = all[3]!;
    const rest: string[] = [];
    for await (const batch of ctx.files.list({ after, batchSize: 2 }))
      rest.push(...batch.map((e) => e.sha256));
    expect(rest).toEqual(all.slice(4));

    // A run stops at its limit after a whole batch and says where the next resumes.
    const run = await sweepFiles(ctx, { limit: 4, batchSize: 2 });
    expect(run).toMatchObject({ listed: 4, next: all[3] });
  });

  it('the job sweeps, then queues the next pass a day later', async () => {
    const orphan = await stored();
    age(orphan, 30);
    await queueSweep(ctx);
    await queueSweep(ctx); // one waiting at a time
    const waiting = await h.query<{ n: number }>(
      `select count(*)::int as n from background_jobs where kind = '${SWEEP_JOB}' and state = 'queued'`,
    );
    expect(Number(waiting[0]!.n)).toBe(1);
    h.jobs.start();
    try {
      await h.jobs.drain({ timeoutMs: 120_000 });
    } finally {
      await h.jobs.stop();
    }
    expect(existsSync(pathOf(orphan))).toBe(false);
    const jobs = await h.query<{ state: string; run_at: Date; progress: Record<string, unknown> | null }>(
      `select state, run_at, progress from background_jobs where kind = '${SWEEP_JOB}' order by id`,
    );
    expect(jobs.map((j) => j.state)).toEqual(['done', 'queued']);
    expect(jobs[0]!.progress).toMatchObject({ removed: 1, passEnded: true });
    const wait = new Date(jobs[1]!.run_at).getTime() - Date.now();
    expect(Math.round(wait / HOUR)).toBe(SWEEP_INTERVAL_HOURS);
  });
});

interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
const S3rverClass = createRequire(import.meta.url)('@20minutes/s3rver') as new (
  options: Record<string, unknown>,
) => S3rver;

describe('the sweep on an S3 bucket', () => {
  const BUCKET = 'sijill-sweep';
  const PREFIX = 'org/';
  let server: S3rver;
  let serverDir: string;
  let store: S3FileStore;
  let s3ctx: ServerContext;
  const requests: string[] = [];
  /** s3rver keeps an object's bytes in a file whose time is the object's LastModified. */
  const objectFile = (sha256: string) =>
    join(serverDir, BUCKET, PREFIX, sha256.slice(0, 2), sha256.slice(2, 4), `${sha256}._S3rver_object`);
  const ageObject = (sha256: string, hours: number) => {
    const at = new Date(Date.now() - hours * HOUR);
    utimesSync(objectFile(sha256), at, at);
  };

  /** s3rver's continuation tokens are single DES, which OpenSSL 3 leaves to its legacy provider. */
  const cipheriv = { create: crypto.createCipheriv, decipher: crypto.createDecipheriv };
  const twoKey = (key: crypto.CipherKey) => Buffer.concat([key as Buffer, key as Buffer]);

  beforeAll(async () => {
    // Single DES as two-key triple DES with both keys the same (the same cipher, in the default
    // provider), for s3rver's tokens only: a listing of more than a page stops there otherwise.
    Object.assign(crypto, {
      createCipheriv: (alg: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) =>
        alg === 'des' ? cipheriv.create('des-ede-cbc', twoKey(key), iv) : cipheriv.create(alg, key, iv),
      createDecipheriv: (alg: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) =>
        alg === 'des' ? cipheriv.decipher('des-ede-cbc', twoKey(key), iv) : cipheriv.decipher(alg, key, iv),
    });
    serverDir = mkdtempSync(join(tmpdir(), 'sijill-s3rver-sweep-'));
    server = new S3rverClass({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: serverDir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    server.httpServer.on('request', (req: { method?: string; url?: string; headers?: object }) =>
      requests.push(`${req.method} ${req.url}`),
    );
    store = createS3FileStore({
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      prefix: PREFIX,
      tempDir: mkdtempSync(join(tmpdir(), 'sijill-s3-sweep-incoming-')),
    });
    // s3rver signs a bucket's own requests (ListObjectsV2) over `/<bucket>`, where the SDK signs
    // `/<bucket>/` (S3 takes either): sent without the slash, before signing.
    store.client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string };
        if (request.path === `/${BUCKET}/`) request.path = `/${BUCKET}`;
        return next(args);
      },
      { step: 'build' },
    );
    s3ctx = { ...ctx, files: store, config: { ...h.config, FILE_STORE: 's3' } } as ServerContext;
  });
  afterAll(async () => {
    Object.assign(crypto, { createCipheriv: cipheriv.create, createDecipheriv: cipheriv.decipher });
    if (store) rmSync(store.tempDir, { recursive: true, force: true });
    store?.destroy();
    await server?.close();
    if (serverDir) rmSync(serverDir, { recursive: true, force: true });
  });

  it('lists the objects under its prefix in SHA-256 order, page after page, resuming after a hash', async () => {
    const hashes: string[] = [];
    for (let i = 0; i < 5; i++) hashes.push(await stored(store));
    // Another application's object under the prefix, and one outside it: not this store's.
    await store.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}notes.txt`, Body: 'x' }));
    await store.client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `elsewhere/${hashes[0]}`, Body: 'x' }),
    );
    const before = requests.length;
    const batches: string[][] = [];
    for await (const batch of store.list({ batchSize: 2 })) batches.push(batch.map((e) => e.sha256));
    expect(batches.flat()).toEqual([...hashes].sort());
    // Pages of two keys: ListObjectsV2 asked three times (the last page holds one hash and notes.txt).
    expect(
      requests.slice(before).filter((r) => r.startsWith(`GET /${BUCKET}?`) && r.includes('list-type=2')),
    ).toHaveLength(3);
    const sorted = [...hashes].sort();
    const rest: string[] = [];
    for await (const batch of store.list({ after: sorted[1] })) rest.push(...batch.map((e) => e.sha256));
    expect(rest).toEqual(sorted.slice(2));
    for await (const [first] of store.list()) {
      expect(first!.modifiedAt).toBeInstanceOf(Date);
      expect(first!.size).toBeGreaterThan(0);
      break;
    }
  });

  it('removes unnamed objects older than the grace and keeps named and younger ones', async () => {
    const orphan = await stored(store);
    ageObject(orphan, 30);
    const young = await stored(store);
    ageObject(young, 2);
    const named = await stored(store);
    ageObject(named, 30);
    await h.query(
      `insert into employee_attachments (employee_id, sha256, file_name, size, mime)
       values (${org.clerk.employeeId}, '${named}', 's3.pdf', 1, 'application/pdf')`,
    );
    const outcome = await sweepFiles(s3ctx);
    expect(outcome.removed.map((r) => r.sha256)).toContain(orphan);
    expect(await store.has(orphan)).toBe(false);
    expect(await store.has(young)).toBe(true);
    expect(await store.has(named)).toBe(true);
    const [audit] = await h.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'files.swept' and details->>'store' = 's3'`,
    );
    expect(audit!.details.hashes).toContain(orphan);

    // With the grace passed for everything (an injected cutoff), every unnamed object goes.
    const all = await sweepFiles(s3ctx, { cutoff: new Date(Date.now() + HOUR) });
    expect(all.removed.map((r) => r.sha256)).toContain(young);
    expect(await store.has(young)).toBe(false);
    expect(await store.has(named)).toBe(true);
  });

  it('storing bytes the bucket holds from long ago copies the object onto itself (its time is now)', async () => {
    const bytes = randomBytes(500);
    const sha256 = sha256Of(bytes);
    await store.put(bytes);
    const key = `/${BUCKET}/${PREFIX}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
    // Just stored: storing again sends nothing but the HEAD.
    let mark = requests.length;
    await store.put(bytes);
    expect(requests.slice(mark).filter((r) => !r.startsWith('HEAD '))).toEqual([]);
    // Stored a day ago: storing again copies it onto itself (S3 then says it was written now; s3rver
    // keeps the file's time, so the request is what is checked here).
    ageObject(sha256, 24);
    mark = requests.length;
    await store.put(bytes);
    expect(requests.slice(mark)).toEqual([`HEAD ${key}`, `PUT ${key}?x-id=CopyObject`]);
    expect((await store.get(sha256)).equals(bytes)).toBe(true);
  });
});
