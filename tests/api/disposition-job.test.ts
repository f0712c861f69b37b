/**
 * Carrying out a disposition as a background job (issue 31, docs/records.md "Carrying it out";
 * src-server/modules/records/disposition-job.ts), on PGlite or PostgreSQL (SIJILL_TEST_DATABASE_URL):
 * - A legal hold placed after the request, before the job ran, stops it: nothing destroyed, the disposition
 *   approved with its job failed and the reason in the caller's language; lifted, it is carried out.
 * - A run stopped right after a batch of documents was deleted (as a worker killed -9 there would stop),
 *   then one stopped after the certificate was stored and before the stored files were removed: the
 *   queued job, run by a worker, finishes the work — every document deleted and recorded exactly once,
 *   in registration order, the bytes only they held gone, the shared ones kept, the certificate listing
 *   every file's SHA-256, the destruction audited once. While it was stopped no hold could be placed on
 *   what was left and it could not be cancelled.
 * - Two runs of one job at once (a worker wrongly thought dead and its job taken over) destroy each
 *   document once and store one certificate.
 * The harness runs no worker (JOBS_WORKER=0): the job's function is called directly where a test stops
 * it, and a worker of the disposition jobs only is started where a test waits for the queue.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '../../src-server/clock';
import type { ServerContext } from '../../src-server/context';
import { translate } from '../../src-server/i18n';
import { JobQueue, type JobContext } from '../../src-server/jobs/queue';
import { DISPOSITION_JOB, runDisposition } from '../../src-server/modules/records/disposition-job';
import { createLocalFileStore } from '../../src-server/storage/files';
import { PAGES } from '../../src-shared/pages';
import { minimalPdf, multipart } from './support/files';
import { call, makeRole, type Harness, startHarness } from './support/harness';
import { actor, letter, organisation, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let rm1: Actor;
let rm2: Actor;
let ctx: ServerContext;
const clock = new MovableClock('2026-03-01T09:00:00Z');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const storedPath = (hash: string) => join(h.filesDir, hash.slice(0, 2), hash.slice(2, 4), hash);

const req = (
  who: Actor,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  lang: 'ar' | 'en' = 'en',
) => call(h, { method, url, token: who.token, lang, ...(body !== undefined ? { body } : {}) });

async function upload(documentId: number, bytes: Buffer) {
  const body = multipart(bytes, 'letter.pdf', 'application/pdf');
  const res = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function registered(extra: Record<string, unknown>) {
  const res = await req(org.clerk, 'POST', '/correspondence/documents', {
    ...letter(org, extra),
    register: true,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data as { id: number; docNumber: string };
}

/**
 * A closed file of `count` registered documents, each with a file of its own (and the first with `extra`
 * too), due at once; its disposition proposed by rm1 and approved by rm2.
 */
async function approvedFile(count: number, extra?: Buffer) {
  const code = `JOB-${randomBytes(3).toString('hex')}`;
  const made = await req(rm1, 'POST', '/records/files', {
    code,
    titleAr: `ملف ${code}`,
    titleEn: `File ${code}`,
    openedOn: '2026-01-01',
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  const fileId = made.json.data.id as number;
  const docs: { id: number; docNumber: string; bytes: Buffer }[] = [];
  for (let i = 0; i < count; i += 1) {
    const doc = await registered({ fileId, subject: `${code} letter ${i + 1}` });
    const bytes = minimalPdf(`${code} ${i} ${randomBytes(6).toString('hex')}`);
    await upload(doc.id, bytes);
    if (i === 0 && extra) await upload(doc.id, extra);
    docs.push({ ...doc, bytes });
  }
  expect((await req(rm1, 'POST', `/records/files/${fileId}/close`, { closedOn: '2026-02-01' })).status).toBe(
    200,
  );
  const proposed = await req(rm1, 'POST', '/records/dispositions', { fileId });
  expect(proposed.status, JSON.stringify(proposed.json)).toBe(201);
  const id = proposed.json.data.id as number;
  expect((await req(rm2, 'POST', `/records/dispositions/${id}/approve`)).status).toBe(200);
  return { id, fileId, code, docs };
}

/** POST …/execute: 202, the disposition executing with its job queued (no worker runs here). */
async function execute(id: number) {
  const res = await req(rm1, 'POST', `/records/dispositions/${id}/execute`);
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  expect(res.json.data).toMatchObject({ state: 'executing', job: { state: 'queued', phase: 'queued' } });
  return res.json.data.job.id as number;
}

/** The queued job's payload, for a run of the job's function. */
async function payloadOf(jobId: number) {
  const [row] = await h.query<{ payload: unknown }>(
    `select payload from background_jobs where id = ${jobId}`,
  );
  return row!.payload;
}

/** A job context whose progress "kills" the run (throws) the first time `stopAt` holds. */
function jobContext(payload: unknown, stopAt?: (p: { phase: string; done: number }) => boolean): JobContext {
  return {
    id: 0,
    attempt: 1,
    payload,
    signal: new AbortController().signal,
    progress: async (value) => {
      if (stopAt?.(value as { phase: string; done: number })) throw new Error('killed here');
    },
    giveWay: async () => undefined,
  };
}

/** Runs the queued disposition jobs with a worker of their own, until none waits. */
async function runQueued() {
  const worker = new JobQueue(h.database.db, { pollMs: 50, yieldWhenBusy: false });
  worker.register(DISPOSITION_JOB, (job) => runDisposition(ctx, job), { backoff: () => 0 });
  worker.start();
  try {
    await worker.drain({ timeoutMs: 120_000 });
  } finally {
    await worker.stop();
  }
}

const documentsLeft = async (fileId: number) =>
  Number(
    (await h.query<{ n: number }>(`select count(*)::int as n from documents where file_id = ${fileId}`))[0]!
      .n,
  );

async function certificateText(id: number): Promise<string> {
  const cert = await h.app.inject({
    method: 'GET',
    url: `/records/dispositions/${id}/certificate`,
    headers: { authorization: `Bearer ${rm1.token}` },
  });
  expect(cert.statusCode).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'sijill-cert-'));
  try {
    writeFileSync(join(dir, 'c.pdf'), cert.rawPayload);
    return execFileSync('pdftotext', ['-layout', join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const executedAudits = async (id: number) =>
  (
    await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'records.dispositionExecuted' and target_id = '${id}'`,
    )
  )[0]!.n;

beforeAll(async () => {
  h = await startHarness({}, { clock });
  ctx = {
    db: h.database.db,
    config: h.config,
    files: createLocalFileStore(h.filesDir),
    jobs: h.jobs,
    clock,
  } as unknown as ServerContext;
  org = await organisation(h);
  const role = await makeRole(h, {
    [PAGES.recordFiles]: ['view', 'add', 'edit'],
    [PAGES.disposition]: ['view', 'add', 'approve', 'edit'],
    [PAGES.legalHolds]: ['view', 'add', 'delete'],
  } as unknown as Record<string, ('view' | 'add')[]>);
  rm1 = await actor(h, role, null);
  rm2 = await actor(h, role, null);
  const schedule = await req(org.admin, 'PUT', `/records/schedules/${org.codIn}`, {
    years: 0,
    action: 'destroy',
    legalReference: 'Job test schedule',
  });
  expect(schedule.status, JSON.stringify(schedule.json)).toBe(200);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('carrying out a disposition as a job', () => {
  it('a hold placed before the job ran stops it with nothing destroyed; lifted, the disposition is carried out', async () => {
    const { id, fileId, docs } = await approvedFile(3);
    await execute(id);
    // Asked again while its job waits: the same job, not a second one.
    const again = await req(rm2, 'POST', `/records/dispositions/${id}/execute`);
    expect(again.status).toBe(202);
    const jobs = await h.query<{ n: number }>(
      `select count(*)::int as n from background_jobs where kind = '${DISPOSITION_JOB}'
         and payload->>'dispositionId' = '${id}'`,
    );
    expect(jobs[0]!.n).toBe(1);
    // Being carried out: not cancelled any more.
    const cancel = await req(rm1, 'POST', `/records/dispositions/${id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.json.code).toBe('records.dispositionExecuting');

    // Nothing is destroyed yet: a hold may still be placed, and it stops the job when it runs.
    const hold = await req(rm2, 'POST', '/records/holds', { documentId: docs[1]!.id, reason: 'Case 7/2026' });
    expect(hold.status, JSON.stringify(hold.json)).toBe(201);
    await runQueued();
    const stopped = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(stopped.json.data).toMatchObject({
      state: 'approved',
      executedBy: null,
      record: [],
      job: { state: 'failed', error: translate('en', 'records.underHold') },
    });
    const inArabic = await req(rm1, 'GET', `/records/dispositions/${id}`, undefined, 'ar');
    expect(inArabic.json.data.job.error).toBe(translate('ar', 'records.underHold'));
    expect(await documentsLeft(fileId)).toBe(3);
    for (const d of docs) expect(existsSync(storedPath(sha(d.bytes)))).toBe(true);
    expect((await req(rm1, 'GET', `/records/files/${fileId}`)).json.data.state).toBe('closed');
    const [audit] = await h.query<{ details: { reason: string } }>(
      `select details from audit_log where action = 'records.dispositionStopped' and target_id = '${id}'`,
    );
    expect(audit?.details.reason).toBe('underHold');

    // Still held: refused at the request. Lifted: carried out.
    const refused = await req(rm1, 'POST', `/records/dispositions/${id}/execute`);
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('records.underHold');
    expect((await req(rm2, 'POST', `/records/holds/${hold.json.data.id}/lift`)).status).toBe(200);
    await execute(id);
    await runQueued();
    const done = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(done.json.data).toMatchObject({ state: 'done', job: null, executedBy: { id: rm1.userId } });
    expect(done.json.data.record).toHaveLength(3);
    expect(await documentsLeft(fileId)).toBe(0);
  });

  it('a run killed after a batch, and one killed before the files were removed: the queued job finishes the work, each document destroyed and recorded once', async () => {
    const shared = minimalPdf(`shared ${randomBytes(6).toString('hex')}`);
    const outside = await registered({ subject: 'Outside the file' });
    await upload(outside.id, shared);
    const { id, fileId, docs } = await approvedFile(7, shared);
    const jobId = await execute(id);
    const payload = await payloadOf(jobId);

    // First run: stopped right after its second batch of two was committed.
    await expect(
      runDisposition(
        ctx,
        jobContext(payload, (p) => p.phase === 'destroying' && p.done >= 4),
        { batch: 2 },
      ),
    ).rejects.toThrow('killed here');
    expect(await documentsLeft(fileId)).toBe(3);
    const midway = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(midway.json.data).toMatchObject({
      state: 'executing',
      outputSha256: null,
      job: { state: 'queued' },
    });
    expect(midway.json.data.record.map((d: { docNumber: string }) => d.docNumber)).toEqual(
      docs.slice(0, 4).map((d) => d.docNumber),
    );
    expect((await req(rm1, 'GET', `/records/files/${fileId}`)).json.data.state).toBe('destroyed');
    // What the screen follows: the state and the job, not the record.
    const progress = await req(rm1, 'GET', `/records/dispositions/${id}/progress`);
    expect(progress.json.data).toEqual({ id, state: 'executing', job: midway.json.data.job });
    // Begun: what is left takes no hold, and the disposition is not cancelled.
    const late = await req(rm2, 'POST', '/records/holds', { documentId: docs[5]!.id, reason: 'Too late' });
    expect(late.status).toBe(422);
    expect(late.json.code).toBe('records.fileDisposed');
    expect((await req(rm1, 'POST', `/records/dispositions/${id}/cancel`)).json.code).toBe(
      'records.dispositionExecuting',
    );
    // Nothing removed from the store yet.
    for (const d of docs) expect(existsSync(storedPath(sha(d.bytes)))).toBe(true);

    // Second run: it deletes the rest, stores the certificate, and is stopped before removing the bytes.
    await expect(
      runDisposition(
        ctx,
        jobContext(payload, (p) => p.phase === 'removing'),
        { batch: 2 },
      ),
    ).rejects.toThrow('killed here');
    expect(await documentsLeft(fileId)).toBe(0);
    const stored = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(stored.json.data.state).toBe('executing');
    expect(stored.json.data.outputSha256).toMatch(/^[0-9a-f]{64}$/);
    for (const d of docs) expect(existsSync(storedPath(sha(d.bytes)))).toBe(true);

    // The job itself, run by a worker: it takes up the work where the runs stopped.
    await runQueued();
    const done = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(done.json.data).toMatchObject({
      state: 'done',
      job: null,
      outputSha256: stored.json.data.outputSha256,
    });
    expect(done.json.data.executedAt).not.toBeNull();
    // Every document once, in registration order, with its files.
    expect(done.json.data.record.map((d: { docNumber: string }) => d.docNumber)).toEqual(
      docs.map((d) => d.docNumber),
    );
    const hashes = done.json.data.record.flatMap((d: { files: { sha256: string }[] }) =>
      d.files.map((f) => f.sha256),
    );
    expect(hashes).toEqual([sha(docs[0]!.bytes), sha(shared), ...docs.slice(1).map((d) => sha(d.bytes))]);
    // The bytes only the file held are gone; the shared ones stay with the other document.
    for (const d of docs) expect(existsSync(storedPath(sha(d.bytes)))).toBe(false);
    expect(existsSync(storedPath(sha(shared)))).toBe(true);
    expect((await req(org.clerk, 'GET', `/correspondence/documents/${outside.id}`)).status).toBe(200);
    // The certificate lists every destroyed file's SHA-256.
    const text = await certificateText(id);
    for (const hash of hashes) expect(text).toContain(hash);
    for (const d of docs) expect(text).toContain(d.docNumber);
    expect(await executedAudits(id)).toBe(1);
    expect((await req(rm1, 'GET', `/records/files/${fileId}`)).json.data).toMatchObject({
      state: 'destroyed',
      documents: 0,
    });
  });

  it('two runs of one job at once destroy each document once and store one certificate', async () => {
    const { id, fileId, docs } = await approvedFile(5);
    const jobId = await execute(id);
    const payload = await payloadOf(jobId);
    await Promise.all([
      runDisposition(ctx, jobContext(payload), { batch: 2 }),
      runDisposition(ctx, jobContext(payload), { batch: 2 }),
    ]);
    // The queued job then finds it done.
    await runQueued();
    const done = await req(rm1, 'GET', `/records/dispositions/${id}`);
    expect(done.json.data.state).toBe('done');
    expect(done.json.data.record.map((d: { docNumber: string }) => d.docNumber)).toEqual(
      docs.map((d) => d.docNumber),
    );
    expect(await documentsLeft(fileId)).toBe(0);
    for (const d of docs) expect(existsSync(storedPath(sha(d.bytes)))).toBe(false);
    const text = await certificateText(id);
    for (const d of docs) expect(text).toContain(sha(d.bytes));
    expect(existsSync(storedPath(done.json.data.outputSha256))).toBe(true);
    expect(await executedAudits(id)).toBe(1);
  });
});
