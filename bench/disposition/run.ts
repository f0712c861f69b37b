/**
 * Disposing of a large file (issue 31; src-server/modules/records, docs/records.md): BENCH_DISPOSITION_DOCS
 * (10,000) registered documents, each with an attachment of its own (a small PDF stored under its SHA-256 in
 * the local store), in one closed file past a 0-year destroy schedule; then a proposal, a second records
 * manager's approval and the destruction, through the API of an app over the API tests' harness with its
 * job worker running (PGlite by default; SIJILL_TEST_DATABASE_URL: PostgreSQL).
 *
 * One document is registered through the API with its upload; the others are copies of its rows made in
 * bulk with SQL (numbers and files their own), since registering 10,000 letters one by one would measure
 * registration; they are indexed for search before the destruction, as a real archive's are (their files'
 * reading is left out). The destruction is a background job (records.disposition): POST …/execute answers
 * 202 at once and the job does the work. Printed: seeding time; each request's time (the execute
 * request's included); the job's time from the request's answer to the disposition done, seen by GET
 * …/dispositions/{id}/progress every 100 ms (the screen reads it every second), and the time spent in
 * each of its phases (destroying the documents, making the certificate, removing the stored files) as its
 * progress told them (a phase shorter than a read is counted in the one before); documents a second; how
 * long those GETs took while the job ran (median, 95th percentile, slowest: what a request waits behind
 * the job on the same thread); what is left on disk and in the tables (nothing of the file's documents);
 * the certificate's size; the load average (the machine may be shared).
 *
 *   npx tsx bench/disposition/run.ts            (BENCH_DISPOSITION_DOCS=1000 for a shorter run)
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { MovableClock } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { minimalPdf, multipart } from '../../tests/api/support/files';
import { call, makeRole, startHarness, type Harness } from '../../tests/api/support/harness';
import { actor, letter, organisation, type Actor } from '../../tests/api/support/correspondence';
import { round, sleep } from '../station/support';

const DOCS = Number(process.env.BENCH_DISPOSITION_DOCS ?? 10_000);
const CHUNK = 2_000;

function must<T>(res: { status: number; json: { data?: T } }, what: string, status = 200): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

const seconds = (from: number) => (performance.now() - from) / 1000;
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

async function main() {
  const clock = new MovableClock('2026-03-01T09:00:00Z');
  // The worker runs in the app, as in a server.
  const h: Harness = await startHarness({ JOBS_WORKER: '1' }, { clock });
  try {
    const org = await organisation(h);
    const role = await makeRole(h, {
      [PAGES.recordFiles]: ['view', 'add', 'edit'],
      [PAGES.disposition]: ['view', 'add', 'approve', 'edit'],
    } as unknown as Record<string, ('view' | 'add')[]>);
    const rm1: Actor = await actor(h, role, null);
    const rm2: Actor = await actor(h, role, null);
    const req = (who: Actor, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      call(h, { method, url, token: who.token, ...(body !== undefined ? { body } : {}) });

    must(
      await req(org.admin, 'PUT', `/records/schedules/${org.codIn}`, {
        years: 0,
        action: 'destroy',
        legalReference: 'Bench schedule',
      }),
      'schedule',
    );
    const file = must<{ id: number }>(
      await req(rm1, 'POST', '/records/files', {
        code: 'BENCH-01',
        titleAr: 'ملف القياس',
        titleEn: 'Bench file',
        openedOn: '2026-01-01',
      }),
      'file',
      201,
    );
    const template = must<{ id: number }>(
      await req(org.clerk, 'POST', '/correspondence/documents', {
        ...letter(org, { fileId: file.id, subject: 'Bench letter' }),
        register: true,
      }),
      'register',
      201,
    );
    const body = multipart(minimalPdf('bench template'), 'letter.pdf', 'application/pdf');
    const up = await h.app.inject({
      method: 'POST',
      url: `/correspondence/documents/${template.id}/attachments`,
      headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
      payload: body.payload,
    });
    if (up.statusCode !== 201) throw new Error(`upload: ${up.statusCode} ${up.body}`);

    // The copies: every column of the template's row but its identity, generated column, number and
    // sequence; each with an attachment row naming a file of its own, written into the store.
    process.stderr.write(`seeding ${DOCS} documents with an attachment each…\n`);
    const seeding = performance.now();
    const columns = (
      await h.query<{ name: string }>(
        `select column_name as name from information_schema.columns
          where table_schema = 'public' and table_name = 'documents' and is_generated = 'NEVER'
            and identity_generation is null
            and column_name not in ('doc_number', 'sequence')
          order by ordinal_position`,
      )
    ).map((c) => `"${c.name}"`);
    const paths: string[] = [];
    for (let start = 1; start < DOCS; start += CHUNK) {
      const count = Math.min(CHUNK, DOCS - start);
      const ids = await h.query<{ id: number }>(
        `insert into documents (${columns.join(', ')}, doc_number, sequence)
         select ${columns.map((c) => `d.${c}`).join(', ')}, 'BENCH-' || g, 1000000 + g
           from documents d, generate_series(${start}, ${start + count - 1}) g
          where d.id = ${template.id}
          returning id`,
      );
      const hashes: string[] = [];
      for (const _ of ids) {
        const bytes = minimalPdf(`bench ${randomBytes(8).toString('hex')}`);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const folder = join(h.filesDir, sha256.slice(0, 2), sha256.slice(2, 4));
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, sha256), bytes);
        paths.push(join(folder, sha256));
        hashes.push(`('${sha256}', ${bytes.length})`);
      }
      await h.query(
        `insert into document_attachments (document_id, sha256, file_name, size, mime, text_status)
         select i.id, f.sha256, 'letter.pdf', f.size, 'application/pdf', 'done'
           from (select id, row_number() over (order by id) as n from unnest(array[${ids
             .map((r) => r.id)
             .join(',')}]) as id) i
           join (select sha256, size, row_number() over () as n from (values ${hashes.join(', ')}) as v(sha256, size)) f
             on f.n = i.n`,
      );
    }
    const seedSeconds = seconds(seeding);

    must(await req(rm1, 'POST', `/records/files/${file.id}/close`, { closedOn: '2026-02-01' }), 'close');
    // The copies' files were read long ago in a real archive: their reading jobs (queued by the inserts)
    // are dropped; their indexing for search runs (the destruction deletes what it made), so that the
    // destruction's job runs alone.
    await h.query(`delete from background_jobs where kind = 'search.read' and state = 'queued'`);
    process.stderr.write('indexing the copies for search…\n');
    await h.jobs.drain({ timeoutMs: 30 * 60_000 });
    let at = performance.now();
    const proposed = must<{ id: number }>(
      await req(rm1, 'POST', '/records/dispositions', { fileId: file.id }),
      'propose',
      201,
    );
    const proposeMs = performance.now() - at;
    at = performance.now();
    must(await req(rm2, 'POST', `/records/dispositions/${proposed.id}/approve`), 'approve');
    const approveMs = performance.now() - at;
    at = performance.now();
    must(await req(rm1, 'POST', `/records/dispositions/${proposed.id}/execute`), 'execute', 202);
    const executeMs = performance.now() - at;

    // The job, followed as the screen follows it: its phases as its progress tells them.
    const started = performance.now();
    const reads: number[] = [];
    const phases = new Map<string, number>();
    let last = 'queued';
    let lastAt = started;
    for (;;) {
      const t = performance.now();
      const d = must<{ state: string; job: { phase: string; state: string; error: string | null } | null }>(
        await req(rm1, 'GET', `/records/dispositions/${proposed.id}/progress`),
        'follow',
      );
      reads.push(performance.now() - t);
      const phase = d.state === 'done' ? 'done' : (d.job?.phase ?? last);
      if (phase !== last) {
        phases.set(last, (phases.get(last) ?? 0) + (performance.now() - lastAt) / 1000);
        last = phase;
        lastAt = performance.now();
      }
      if (d.state === 'done') break;
      if (d.job?.state === 'failed') throw new Error(`the job failed: ${d.job.error}`);
      await sleep(100);
    }
    const jobSeconds = seconds(started);
    reads.sort((a, b) => a - b);

    const [left] = await h.query<{ documents: number; attachments: number }>(
      `select (select count(*)::int from documents where file_id = ${file.id}) as documents,
              (select count(*)::int from document_attachments a join documents d on d.id = a.document_id
                where d.file_id = ${file.id}) as attachments`,
    );
    const onDisk = paths.filter((p) => existsSync(p)).length;
    const certificate = await h.app.inject({
      method: 'GET',
      url: `/records/dispositions/${proposed.id}/certificate`,
      headers: { authorization: `Bearer ${rm1.token}` },
    });
    console.log(
      JSON.stringify(
        {
          benchmark: 'disposition',
          database: h.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
          documents: DOCS,
          seedSeconds: round(seedSeconds, 1),
          requestMs: {
            propose: Math.round(proposeMs),
            approve: Math.round(approveMs),
            execute: Math.round(executeMs),
          },
          jobSeconds: round(jobSeconds, 1),
          phaseSeconds: Object.fromEntries([...phases].map(([k, v]) => [k, round(v, 1)])),
          documentsPerSecond: Math.round(DOCS / jobSeconds),
          followReadsDuringJobMs: {
            count: reads.length,
            median: Math.round(percentile(reads, 50)),
            p95: Math.round(percentile(reads, 95)),
            max: Math.round(reads[reads.length - 1] ?? 0),
          },
          left: { ...left, filesOnDisk: onDisk },
          certificate: { status: certificate.statusCode, bytes: certificate.rawPayload.length },
          loadAverage: loadavg().map((v) => round(v, 2)),
        },
        null,
        2,
      ),
    );
  } finally {
    await h.close();
  }
}

await main();
process.exit(0);
