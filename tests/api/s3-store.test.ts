/**
 * The S3-compatible file store (src-server/storage/s3.ts) against a real S3 server running in this
 * process on 127.0.0.1 (@20minutes/s3rver, a maintained fork of s3rver: signatures checked, multipart
 * uploads, ranges): bytes round-trip, a large file goes up as a multipart upload and its temporary file
 * is gone, one content is stored once, a range is exactly those bytes, a missing object errors, a bad
 * hash never reaches the server; the configuration (FILE_STORE=s3) and its factory; and the API storing
 * and serving a correspondence attachment through the bucket, and a destruction (its job) removing from
 * the bucket the bytes only the destroyed file held.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src-server/app';
import { loadConfig } from '../../src-server/config';
import { JobQueue } from '../../src-server/jobs/queue';
import { sha256Of } from '../../src-server/storage/files';
import { createFileStore } from '../../src-server/storage/index';
import { createS3FileStore, type S3FileStore } from '../../src-server/storage/s3';
import { minimalPdf, multipart } from './support/files';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { actor, letter, organisation } from './support/correspondence';
import { PAGES } from '../../src-shared/pages';

interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
// CommonJS without type declarations.
const S3rverClass = createRequire(import.meta.url)('@20minutes/s3rver') as new (
  options: Record<string, unknown>,
) => S3rver;

const BUCKET = 'sijill-test';
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }; // s3rver's own pair
const MIB = 1024 * 1024;

let server: S3rver;
let endpoint: string;
let serverDir: string;
let tempDir: string;
let store: S3FileStore;
/** Every request the S3 server received, as `METHOD /path?query`. */
const requests: string[] = [];

const storeWith = (prefix: string) =>
  createS3FileStore({ bucket: BUCKET, endpoint, credentials: KEYS, prefix, tempDir });

/** Where the store keeps a hash under `prefix`: `<prefix>ab/cd/<sha256>`. */
const keyOf = (prefix: string, sha256: string) =>
  `${prefix}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;

/** The size of the object at exactly `key`, or null when there is none (asked over S3, not through the store). */
async function sizeAt(key: string): Promise<number | null> {
  try {
    const res = await store.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return res.ContentLength ?? null;
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return null;
    throw error;
  }
}

/** The uploads (PUT of a whole object) the server received for `key` since request number `from`. */
const putsOf = (key: string, from: number) =>
  requests.slice(from).filter((r) => r.startsWith(`PUT /${BUCKET}/${key}?`) || r === `PUT /${BUCKET}/${key}`);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes `size` random bytes to a new file in tempDir (as an upload being received); answers path, hash. */
async function tempFile(size: number): Promise<{ path: string; sha256: string }> {
  const path = join(tempDir, `upload-${randomBytes(6).toString('hex')}`);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let left = size; left > 0; left -= MIB) {
    const chunk = randomBytes(Math.min(MIB, left));
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { path, sha256: hash.digest('hex') };
}

beforeAll(async () => {
  serverDir = mkdtempSync(join(tmpdir(), 'sijill-s3rver-'));
  tempDir = mkdtempSync(join(tmpdir(), 'sijill-s3-incoming-'));
  server = new S3rverClass({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: serverDir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  server.httpServer.on('request', (req: { method?: string; url?: string }) =>
    requests.push(`${req.method} ${req.url}`),
  );
  store = storeWith('unit/');
});
afterAll(async () => {
  store?.destroy();
  await server?.close();
  rmSync(serverDir, { recursive: true, force: true });
  rmSync(tempDir, { recursive: true, force: true });
});

describe('S3 file store', () => {
  it('stores bytes under <prefix>ab/cd/<sha256> and reads them back', async () => {
    const bytes = randomBytes(3000);
    const sha256 = sha256Of(bytes);
    expect(await store.has(sha256)).toBe(false);
    expect(await store.put(bytes)).toEqual({ sha256, size: 3000 });
    expect(await store.has(sha256)).toBe(true);
    expect((await store.get(sha256)).equals(bytes)).toBe(true);
    expect((await readAll(store.open(sha256))).equals(bytes)).toBe(true);
    expect(await sizeAt(keyOf('unit/', sha256))).toBe(3000);
    expect(await sizeAt(sha256)).toBeNull();
    expect(store.tempDir).toBe(tempDir);
  });

  it('sends a large file as a multipart upload and removes the temporary file', async () => {
    const size = 12 * MIB + 123; // three parts of 5 MiB (the last one short)
    const { path, sha256 } = await tempFile(size);
    const before = requests.length;
    await store.putFile(path, sha256);
    expect(existsSync(path)).toBe(false);

    const sent = requests.slice(before);
    const key = `/${BUCKET}/${keyOf('unit/', sha256)}`;
    expect(sent.filter((r) => r.startsWith(`POST ${key}?uploads`))).toHaveLength(1);
    expect(sent.filter((r) => r.startsWith(`PUT ${key}?`) && /[?&]partNumber=\d/.test(r))).toHaveLength(3);
    expect(sent.filter((r) => r.startsWith(`POST ${key}?uploadId=`))).toHaveLength(1);
    // Never a single PUT of the whole file.
    expect(sent).not.toContain(`PUT ${key}`);

    const back = await store.get(sha256);
    expect(back.length).toBe(size);
    expect(sha256Of(back)).toBe(sha256);
    const streamed = createHash('sha256');
    for await (const chunk of store.open(sha256)) streamed.update(chunk as Buffer);
    expect(streamed.digest('hex')).toBe(sha256);

    // A range across the first part boundary is exactly those bytes.
    const range = { start: 5 * MIB - 10, end: 5 * MIB + 9 };
    const piece = await readAll(store.open(sha256, range));
    expect(piece.equals(back.subarray(range.start, range.end + 1))).toBe(true);
  });

  it('stores the same content once, and keeps bytes already stored', async () => {
    const bytes = randomBytes(5000);
    const sha256 = sha256Of(bytes);
    const key = keyOf('unit/', sha256);
    const before = requests.length;
    expect(await store.put(bytes)).toEqual({ sha256, size: 5000 });
    expect(await store.put(bytes)).toEqual({ sha256, size: 5000 });
    expect(putsOf(key, before)).toHaveLength(1);
    expect(await sizeAt(key)).toBe(5000);

    // putFile of a hash already stored uploads nothing and still removes the temporary file.
    const path = join(tempDir, 'same-hash');
    writeFileSync(path, Buffer.from('other bytes claiming the same hash'));
    const mark = requests.length;
    await store.putFile(path, sha256);
    expect(existsSync(path)).toBe(false);
    expect(requests.slice(mark).filter((r) => !r.startsWith('HEAD '))).toEqual([]);
    expect((await store.get(sha256)).equals(bytes)).toBe(true);
  });

  it('opens an inclusive byte range as exactly those bytes', async () => {
    const bytes = randomBytes(1000);
    const { sha256 } = await store.put(bytes);
    expect((await readAll(store.open(sha256, { start: 5, end: 14 }))).equals(bytes.subarray(5, 15))).toBe(
      true,
    );
    // (From the first byte: s3rver answers `bytes=0-0` with the whole object, unlike S3.)
    expect((await readAll(store.open(sha256, { start: 0, end: 1 }))).equals(bytes.subarray(0, 2))).toBe(true);
    expect((await readAll(store.open(sha256, { start: 990, end: 999 }))).equals(bytes.subarray(990))).toBe(
      true,
    );
    expect(() => store.open(sha256, { start: 10, end: 5 })).toThrow(RangeError);
  });

  it('errors on a missing object: the stream emits it, get rejects, has answers false', async () => {
    const missing = sha256Of(randomBytes(32));
    const stream = store.open(missing);
    const [error] = (await once(stream, 'error')) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ENOENT');
    expect(error.message).toContain(missing);
    await expect(store.get(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.has(missing)).toBe(false);
  });

  it('refuses what is not a sha256 before any request', async () => {
    const bad = [
      '../../etc/passwd',
      'a'.repeat(63),
      'A'.repeat(64),
      `${'a'.repeat(64)}/x`,
      `${'a'.repeat(62)}/.`,
      `../${'a'.repeat(61)}`,
    ];
    const before = requests.length;
    for (const hash of bad) {
      expect(() => store.open(hash)).toThrow(/not a sha256/);
      await expect(store.get(hash)).rejects.toThrow(/not a sha256/);
      await expect(store.has(hash)).rejects.toThrow(/not a sha256/);
      const path = join(tempDir, 'refused');
      writeFileSync(path, 'x');
      await expect(store.putFile(path, hash)).rejects.toThrow(/not a sha256/);
      expect(existsSync(path)).toBe(false);
    }
    expect(requests.slice(before)).toEqual([]);
  });
});

describe('FILE_STORE=s3 configuration', () => {
  it('stops with the missing variables named', () => {
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(
      /S3_BUCKET: required when FILE_STORE=s3[\s\S]*S3_ACCESS_KEY_ID: required[\s\S]*S3_SECRET_ACCESS_KEY: required/,
    );
    expect(() =>
      loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }),
    ).not.toThrow();
    expect(() => loadConfig({ FILE_STORE: 'ftp' })).toThrow(/FILE_STORE/);
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be an http/);
    // Every variable to fix at once: a bad value beside the missing ones.
    expect(() => loadConfig({ FILE_STORE: 's3', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE: must be true or false[\s\S]*S3_BUCKET: required/,
    );
    expect(loadConfig({}).FILE_STORE).toBe('local');
    expect(loadConfig({ S3_FORCE_PATH_STYLE: 'false' }).S3_FORCE_PATH_STYLE).toBe(false);
  });

  it('builds the S3 store from the environment (path style by default with an endpoint)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sijill-data-'));
    const files = (await createFileStore(
      loadConfig({
        DATA_DIR: dataDir,
        FILE_STORE: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: KEYS.accessKeyId,
        S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
        S3_PREFIX: 'factory',
      }),
    )) as S3FileStore;
    try {
      expect(files.tempDir).toBe(join(dataDir, 'tmp', 'uploads'));
      const { sha256 } = await files.put(Buffer.from('through the factory'));
      // S3_PREFIX without its `/`: one is added.
      expect(await sizeAt(keyOf('factory/', sha256))).toBe('through the factory'.length);
      expect((await files.get(sha256)).toString()).toBe('through the factory');
    } finally {
      files.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the API over the S3 store', () => {
  let h: Harness;
  let app: App;
  let files: S3FileStore;
  let jobs: JobQueue;
  beforeAll(async () => {
    h = await startHarness();
    files = storeWith('api/');
    // A second app over the harness's database, with its files in the bucket; its job queue is started by
    // the test that needs its jobs (a destruction), and stopped when the app closes.
    jobs = new JobQueue(h.database.db, { pollMs: 50, stopGraceMs: 5000 });
    app = await buildApp({ config: h.config, database: h.database, files, jobs });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
    files?.destroy();
  });

  it('stores a correspondence attachment in the bucket and serves its bytes', async () => {
    const s3h: Harness = { ...h, app };
    const org = await organisation(s3h);
    const doc = await call(s3h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    expect(doc.status).toBe(201);
    const bytes = minimalPdf(`stored in S3 ${randomBytes(4).toString('hex')}`);
    const sha256 = sha256Of(bytes);
    const body = multipart(bytes, 'letter.pdf', 'application/pdf');
    const before = requests.length;
    const up = await app.inject({
      method: 'POST',
      url: `/correspondence/documents/${doc.json.data.id}/attachments`,
      headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(201);
    expect(putsOf(keyOf('api/', sha256), before)).toHaveLength(1);
    expect(await sizeAt(keyOf('api/', sha256))).toBe(bytes.length);

    const url = `/correspondence/documents/${doc.json.data.id}/attachments/${up.json().data.id}/content`;
    const headers = { authorization: `Bearer ${org.clerk.token}` };
    const whole = await app.inject({ method: 'GET', url, headers });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers.etag).toBe(`"${sha256}"`);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await app.inject({ method: 'GET', url, headers: { ...headers, range: 'bytes=5-14' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(bytes.subarray(5, 15))).toBe(true);
  });

  it('destroys a file: the bucket loses the bytes only its documents held; shared bytes and the certificate stay', async () => {
    const s3h: Harness = { ...h, app };
    const org = await organisation(s3h);
    const role = await makeRole(s3h, {
      [PAGES.recordFiles]: ['view', 'add', 'edit'],
      [PAGES.retentionSchedules]: ['view', 'edit'],
      [PAGES.disposition]: ['view', 'add', 'approve', 'edit'],
    } as unknown as Record<string, ('view' | 'add')[]>);
    const rm1 = await actor(s3h, role, null);
    const rm2 = await actor(s3h, role, null);
    const req = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      call(s3h, { method, url, token, ...(body !== undefined ? { body } : {}) });
    const attach = async (documentId: number, bytes: Buffer) => {
      const body = multipart(bytes, 'letter.pdf', 'application/pdf');
      const res = await app.inject({
        method: 'POST',
        url: `/correspondence/documents/${documentId}/attachments`,
        headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    const schedule = await req(org.admin.token, 'PUT', `/records/schedules/${org.codIn}`, {
      years: 0,
      action: 'destroy',
      legalReference: 'S3 destruction test',
    });
    expect(schedule.status, JSON.stringify(schedule.json)).toBe(200);
    const made = await req(rm1.token, 'POST', '/records/files', {
      code: `S3-${randomBytes(3).toString('hex')}`,
      titleAr: 'ملف في السحابة',
      titleEn: 'A file in the bucket',
      openedOn: '2026-01-01',
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const fileId = made.json.data.id as number;
    const register = async (extra: Record<string, unknown>) => {
      const res = await req(org.clerk.token, 'POST', '/correspondence/documents', {
        ...letter(org, extra),
        register: true,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json.data.id as number;
    };
    const own = minimalPdf(`only in the file ${randomBytes(4).toString('hex')}`);
    const shared = minimalPdf(`also elsewhere ${randomBytes(4).toString('hex')}`);
    const inFile = await register({ fileId });
    const alsoInFile = await register({ fileId });
    const outside = await register({});
    await attach(inFile, own);
    await attach(alsoInFile, shared);
    await attach(outside, shared);
    expect(await sizeAt(keyOf('api/', sha256Of(own)))).toBe(own.length);
    expect(await sizeAt(keyOf('api/', sha256Of(shared)))).toBe(shared.length);

    const closed = await req(rm1.token, 'POST', `/records/files/${fileId}/close`, { closedOn: '2026-01-02' });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    const proposed = await req(rm1.token, 'POST', '/records/dispositions', { fileId });
    expect(proposed.status, JSON.stringify(proposed.json)).toBe(201);
    const id = proposed.json.data.id as number;
    expect((await req(rm2.token, 'POST', `/records/dispositions/${id}/approve`)).status).toBe(200);
    const asked = await req(rm1.token, 'POST', `/records/dispositions/${id}/execute`);
    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    expect(asked.json.data.state).toBe('executing');
    // The destruction is the job's: run by this app's worker, over the bucket.
    jobs.start();
    await jobs.drain({ timeoutMs: 120_000 });
    const done = await req(rm1.token, 'GET', `/records/dispositions/${id}`);
    expect(done.json.data.state).toBe('done');

    // Asked of the bucket itself, not through the store.
    expect(await sizeAt(keyOf('api/', sha256Of(own)))).toBeNull();
    expect(await sizeAt(keyOf('api/', sha256Of(shared)))).toBe(shared.length);
    const kept = await req(org.clerk.token, 'GET', `/correspondence/documents/${outside}`);
    expect(kept.status).toBe(200);
    const [row] = await h.query<{ output_sha256: string }>(
      `select output_sha256 from dispositions where id = ${id}`,
    );
    expect(row?.output_sha256).toMatch(/^[0-9a-f]{64}$/);
    const certificate = await app.inject({
      method: 'GET',
      url: `/records/dispositions/${id}/certificate`,
      headers: { authorization: `Bearer ${rm1.token}` },
    });
    expect(certificate.statusCode).toBe(200);
    expect(certificate.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await sizeAt(keyOf('api/', row!.output_sha256))).toBe(certificate.rawPayload.length);
  });
});
