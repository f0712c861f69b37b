/**
 * Scanning station benchmark (issue 13): `npx tsx bench/station/run.ts`. A burst of 1,000 distinct
 * scan-sized PDFs (one page with a grey-scale image of random pixels, which does not compress, ~200 KB)
 * copied into a watched folder, against a local server. Every process is separate: the API server
 * (`src-server/cli.ts serve`, PGlite in a temporary folder, settings as shipped), the headless station
 * (`src-main/station/cli.ts`, a dedicated account, --concurrency 4 --scan-ms 200 --stable-ms 300) and
 * this process, which copies the files in and watches processed/. Three lines:
 *
 * 1. raw loopback: the same bytes POSTed as multipart by the station's own transport (streamed from disk,
 *    4 at once) to a trivial Node HTTP server (its own process) that drains each body and answers 201:
 *    the ceiling, and the share's denominator; beside it the same with node:http (no fetch), for scale;
 * 2. server alone: another 1,000 such PDFs uploaded straight to the server as the station sends them
 *    (POST /correspondence/intake/batch, BENCH_BATCH files a request, BENCH_CONCURRENCY requests at
 *    once, each file with its Idempotency-Key) on a fresh server: what the server costs;
 * 3. station: from the first file copied in until all 1,000 are in processed/.
 *
 * Then, the server stopped, its database is read: documents, attachments, distinct contents and intake
 * receipts, against the files' own sha256. Lost = files not in processed/ or not on the server;
 * duplicated = a content registered more than once (attachments or documents beyond the distinct
 * contents). Memory: VmRSS sampled every 100 ms and VmHWM of the station and server processes; CPU time
 * of each process from /proc. Targets: station throughput ≥ 50% of the raw loopback upload, lost 0,
 * duplicated 0. Printed and written to bench/station/results.json; nothing fails on a missed target.
 *
 * Before lines 2 and 3, BENCH_WARM (150) other PDFs go the same way untimed (line 3: through a second
 * watched folder of the same station), so that what is timed is a warmed-up server and station.
 *
 * Knobs: BENCH_FILES (1000), BENCH_FILE_KB (200), BENCH_CONCURRENCY (4), BENCH_BATCH (32), BENCH_WARM (150), BENCH_SCAN_MS (200),
 * BENCH_STABLE_MS (300); BENCH_DATABASE_URL: the servers on fresh PostgreSQL databases there (created
 * and dropped) instead of PGlite; BENCH_SERVER_CPU_PROF / BENCH_STATION_CPU_PROF=<folder>: V8 CPU
 * profiles of the server or station processes, written when they stop.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { PAGES } from '../../src-shared/pages';
import { openDatabase } from '../../src-server/db/open';
import { httpTransport } from '../../src-main/station/transport';
import {
  MB,
  MemorySampler,
  ROOT,
  api,
  firstAdmin,
  must,
  procCpuSeconds,
  procMemory,
  round,
  signIn,
  sleep,
  spawnNode,
  startServerProcess,
  table,
  waitForLine,
  writePdf,
  writeResults,
} from './support';

const FILES = Number(process.env.BENCH_FILES ?? 1000);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 32);
/**
 * Files sent through the same path before each timed line (not timed): the server and the station as
 * they run in an office, warmed up (their code compiled by V8's optimising tier, caches filled), not
 * the first seconds of a fresh process. BENCH_WARM=0 measures cold.
 */
const WARM = Number(process.env.BENCH_WARM ?? 150);
const SCAN_MS = Number(process.env.BENCH_SCAN_MS ?? 200);
const STABLE_MS = Number(process.env.BENCH_STABLE_MS ?? 300);
/** The station run is given up when processed/ has not grown for this long. */
const STALL_MS = 120_000;
const TARGET_SHARE = 50;

const SCANNER = { username: 'scanner', password: 'Scanner#2026-bench' };

interface Pdf {
  name: string;
  path: string;
  size: number;
  sha256: string;
}

/** `count` distinct PDFs in `dir`, named like a scanner names them. */
async function makePdfs(dir: string, prefix: string, count: number): Promise<Pdf[]> {
  await mkdir(dir, { recursive: true });
  const pdfs: Pdf[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `${prefix}-${String(i).padStart(4, '0')}.pdf`;
    const path = join(dir, name);
    const { size, sha256 } = await writePdf(path, FILE_KB * 1024, `${prefix} page ${i}`);
    pdfs.push({ name, path, size, sha256 });
  }
  return pdfs;
}

/**
 * Uploads `pdfs` through the station's transport, `concurrency` requests at once: one file a request
 * (`batch` 1, POST /correspondence/intake: what a plain uploader sends, the raw line) or `batch` files a
 * request (POST /correspondence/intake/batch, as the station sends a backlog); answers seconds and statuses.
 */
async function uploadAll(
  baseUrl: string,
  headers: Record<string, string>,
  pdfs: Pdf[],
  concurrency: number,
  batch = 1,
): Promise<{ seconds: number; statuses: Record<string, number> }> {
  const transport = httpTransport({ baseUrl: () => baseUrl, headers: () => headers, ready: () => true });
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pdfs.length) {
        if (batch === 1) {
          const pdf = pdfs[next++]!;
          count((await transport.intake({ path: pdf.path, name: pdf.name }, randomUUID(), null)).status);
          continue;
        }
        const files = pdfs.slice(next, (next += batch));
        const answers = await transport.intakeBatch(
          files.map((pdf) => ({ path: pdf.path, name: pdf.name, key: randomUUID(), number: null })),
        );
        for (const answer of answers) count(answer.status);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, statuses };
}

/**
 * The same uploads without fetch and web streams: node:http with a keep-alive agent, the file piped from
 * disk between the multipart head and tail. The floor of what the loopback costs on this machine.
 */
async function uploadAllNodeHttp(baseUrl: string, pdfs: Pdf[], concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pdfs.length) {
        const pdf = pdfs[next++]!;
        const boundary = `----sijill${randomUUID()}`;
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${pdf.name}"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        );
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const status = await new Promise<number>((done, fail) => {
          const req = http.request(`${baseUrl}/correspondence/intake`, {
            method: 'POST',
            agent,
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': head.length + pdf.size + tail.length,
            },
          });
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => done(res.statusCode ?? 0));
          });
          req.on('error', fail);
          req.write(head);
          const file = createReadStream(pdf.path, { highWaterMark: 256 * 1024 });
          file.on('error', fail);
          file.on('end', () => req.end(tail));
          file.pipe(req, { end: false });
        });
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, statuses };
}

/** A trivial HTTP server in its own process: drains each request body, answers 201 with a small JSON. */
async function startSink() {
  const script = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      req.on('data', () => {});
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"data":{"documentId":1,"docNumber":null,"replayed":false}}');
      });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = spawnNode(['-e', script]);
  const [, url] = await waitForLine(child, /listening on (http:\/\/[^\s]+)/);
  return Object.assign(child, { url: url! });
}

/**
 * A fresh database for one server: PGlite in `dataDir` (undefined), or with BENCH_DATABASE_URL a new
 * PostgreSQL database on that server, dropped by `drop()`.
 */
async function freshDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  const name = `sijill_bench_station_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A fresh server with its administrator and a scanning-station account (a role that may add incoming). */
async function serverWithScanner(dataDir: string, databaseUrl: string | undefined) {
  const server = await startServerProcess(dataDir, databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    const admin = await firstAdmin(server.url);
    const role = await must<{ id: number }>(201, server.url, 'POST', '/auth/roles', {
      token: admin,
      body: { nameAr: 'محطة المسح الضوئي', nameEn: 'Scanning station' },
    });
    type Section = { id: number; path: string; children: { id: number; path: string }[] };
    const permissionsPath = `/auth/roles/${role.id}/permissions`;
    const matrix = await must<{ pages: Section[] }>(200, server.url, 'GET', permissionsPath, {
      token: admin,
    });
    const pageId = new Map(
      matrix.pages.flatMap((s) => [
        [s.path, s.id] as const,
        ...s.children.map((p) => [p.path, p.id] as const),
      ]),
    );
    const grants: [string, string[]][] = [
      [PAGES.inboxAdd, ['add']],
      [PAGES.inboxDrafts, ['view', 'edit']],
      [PAGES.incoming, ['view', 'edit']],
    ];
    await must(200, server.url, 'PUT', permissionsPath, {
      token: admin,
      body: { entries: grants.map(([path, permissions]) => ({ pageId: pageId.get(path)!, permissions })) },
    });
    await must(201, server.url, 'POST', '/auth/users', {
      token: admin,
      body: {
        username: SCANNER.username,
        email: 'scanner@sijill.test',
        nameAr: 'الماسح الضوئي',
        nameEn: 'Scanner',
        roleId: role.id,
        password: SCANNER.password,
        passwordConfirmation: SCANNER.password,
      },
    });
    // The first sign-in offers two-factor enrolment: skipped once, as the station's account must be.
    const token = await signIn(server.url, SCANNER.username, SCANNER.password);
    return { server, token };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** What the server's database holds, read after the server has stopped. */
async function serverCounts(dataDir: string, databaseUrl: string | undefined, expected: Pdf[]) {
  const database = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, migrate: false });
  try {
    const rows = async <T>(text: string) =>
      ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
    const [counts] = await rows<{
      documents: number;
      incomingDrafts: number;
      attachments: number;
      contents: number;
      receipts: number;
      documentsWithoutAttachment: number;
    }>(`select (select count(*) from documents)::int as "documents",
          (select count(*) from documents where direction = 'in' and state = 'draft')::int as "incomingDrafts",
          (select count(*) from document_attachments)::int as "attachments",
          (select count(distinct sha256) from document_attachments)::int as "contents",
          (select count(*) from intake_receipts)::int as "receipts",
          (select count(*) from documents d where not exists
             (select 1 from document_attachments a where a.document_id = d.id))::int as "documentsWithoutAttachment"`);
    const stored = new Set(
      (await rows<{ sha256: string }>('select distinct sha256 from document_attachments')).map(
        (r) => r.sha256,
      ),
    );
    const missing = expected.filter((p) => !stored.has(p.sha256)).map((p) => p.name);
    return { ...counts!, missingOnServer: missing.length, missingExamples: missing.slice(0, 5) };
  } finally {
    await database.close();
  }
}

/** Line 3: the station against a fresh server, the files copied into its watched folder. */
async function stationRun(root: string, pdfs: Pdf[], warm: Pdf[], databaseUrl: string | undefined) {
  const dataDir = join(root, 'server-station');
  const { server } = await serverWithScanner(dataDir, databaseUrl);
  const folder = join(root, 'scans');
  const warmFolder = join(root, 'warm');
  const stationDir = join(root, 'station');
  await mkdir(folder, { recursive: true });
  await mkdir(warmFolder, { recursive: true });
  // BENCH_STATION_CPU_PROF=<folder>: the station writes a V8 CPU profile there when it stops (diagnosis).
  const profile = process.env.BENCH_STATION_CPU_PROF;
  const station = spawnNode(
    [
      ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
      '--import',
      'tsx',
      join(ROOT, 'src-main/station/cli.ts'),
      ...['--folder', warmFolder, '--folder', folder],
      ...['--server', server.url, '--user', SCANNER.username, '--data-dir', stationDir],
      ...[
        '--scan-ms',
        String(SCAN_MS),
        '--stable-ms',
        String(STABLE_MS),
        '--concurrency',
        String(CONCURRENCY),
        '--batch',
        String(BATCH),
      ],
      ...['--lang', 'en'],
    ],
    { SIJILL_STATION_PASSWORD: SCANNER.password },
  );
  let log = '';
  station.process.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  const processedDir = join(folder, 'processed');
  const rejectedDir = join(folder, 'rejected');
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
  try {
    await waitForLine(station, /station: watching/);
    await sleep(500); // its first pass over the empty folders
    // Warm-up (untimed): other files through the other watched folder, until all are processed.
    if (warm.length > 0) {
      for (const pdf of warm) await copyFile(pdf.path, join(warmFolder, pdf.name));
      const until = performance.now() + STALL_MS;
      while ((await list(join(warmFolder, 'processed'))).length < warm.length) {
        if (performance.now() > until || station.process.exitCode !== null)
          throw new Error('the warm-up files were not all processed');
        await sleep(50);
      }
      await sleep(500); // the station's pass after the last of them
    }
    const memory = new MemorySampler({ station: station.pid, server: server.pid }, 100);
    const idle = { station: procMemory(station.pid), server: procMemory(server.pid) };
    memory.phase('burst');
    const cpuBefore = {
      station: procCpuSeconds(station.pid),
      server: procCpuSeconds(server.pid),
      bench: procCpuSeconds('self'),
    };
    const started = performance.now();
    // The burst: copied in as fast as the disk takes them, two at a time (a scanner's batch arriving).
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < pdfs.length) {
          const pdf = pdfs[next++]!;
          await copyFile(pdf.path, join(folder, pdf.name));
        }
      }),
    );
    const droppedMs = performance.now() - started;
    let processed = 0;
    let rejected = 0;
    let lastChange = performance.now();
    let firstProcessedMs: number | null = null;
    const progress: { s: number; processed: number }[] = [];
    for (;;) {
      const [p, r] = [
        (await list(processedDir)).length,
        (await list(rejectedDir)).filter((n) => n.endsWith('.pdf')).length,
      ];
      if (p > 0 && firstProcessedMs === null) firstProcessedMs = performance.now() - started;
      if (p !== processed || r !== rejected) lastChange = performance.now();
      [processed, rejected] = [p, r];
      if (processed + rejected >= pdfs.length) break;
      if (performance.now() - lastChange > STALL_MS) break;
      if (station.process.exitCode !== null) break;
      const s = round((performance.now() - started) / 1000, 0);
      if (!progress.length || progress.at(-1)!.s !== s) progress.push({ s, processed });
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    memory.stop();
    const cpu = (name: 'station' | 'server' | 'bench', pid: number | 'self') => {
      const [before, after] = [cpuBefore[name], procCpuSeconds(pid)];
      return before === null || after === null ? null : round(after - before, 1);
    };
    const cpuSeconds = {
      station: cpu('station', station.pid),
      server: cpu('server', server.pid),
      bench: cpu('bench', 'self'),
    };
    const stationMemory = procMemory(station.pid);
    const serverMemory = procMemory(server.pid);
    const left = (await readdir(folder)).filter((n) => n.endsWith('.pdf'));
    const rejectedNames = (await list(rejectedDir)).filter((n) => n.endsWith('.pdf'));
    await station.stop();
    await server.stop();
    const db = await serverCounts(dataDir, databaseUrl, pdfs);
    const bytes = pdfs.reduce((n, p) => n + p.size, 0);
    const lost = Math.max(pdfs.length - processed, db.missingOnServer);
    // A content registered twice shows as an attachment or a document beyond the distinct contents.
    const duplicated = Math.max(0, db.attachments - db.contents, db.documents - db.contents);
    return {
      files: pdfs.length,
      bytes,
      seconds: round(seconds, 2),
      mbPerSec: round(bytes / MB / seconds, 2),
      filesPerSec: round(processed / seconds, 1),
      dropSeconds: round(droppedMs / 1000, 2),
      firstProcessedSeconds: firstProcessedMs === null ? null : round(firstProcessedMs / 1000, 2),
      afterLastDropSeconds: round(seconds - droppedMs / 1000, 2),
      processed,
      rejected: rejectedNames.length,
      rejectedExamples: rejectedNames.slice(0, 5),
      leftInFolder: left.length,
      server: db,
      lost,
      duplicated,
      cpuSeconds,
      retriesLogged: (log.match(/\(try \d+\)/g) ?? []).length,
      retryExamples: log
        .split('\n')
        .filter((l) => /\(try \d+\)/.test(l))
        .slice(0, 5),
      stationMemoryMB: {
        idle: idle.station?.rssMB ?? null,
        peakSampledRss: memory.peak('burst', 'station'),
        vmHWM: stationMemory?.hwmMB ?? null,
      },
      serverMemoryMB: {
        idle: idle.server?.rssMB ?? null,
        peakSampledRss: memory.peak('burst', 'server'),
        vmHWM: serverMemory?.hwmMB ?? null,
      },
      progress: progress.filter((_, i) => i % 5 === 0),
    };
  } catch (error) {
    process.stderr.write(`station output:\n${log.slice(-4000)}\nserver output:\n${server.output()}\n`);
    throw error;
  } finally {
    await station.stop();
    await server.stop();
  }
}

async function main() {
  const root = await mkdtemp(join(tmpdir(), 'sijill-bench-station-'));
  try {
    process.stderr.write(`writing ${2 * FILES} PDFs of ${FILE_KB} KB…\n`);
    const burst = await makePdfs(join(root, 'burst'), 'scan', FILES);
    const direct = await makePdfs(join(root, 'direct'), 'direct', FILES);
    const warmDirect = await makePdfs(join(root, 'warm-direct'), 'warm-direct', WARM);
    const warmStation = await makePdfs(join(root, 'warm-station'), 'warm-station', WARM);
    const bytes = burst.reduce((n, p) => n + p.size, 0);

    // 1. The ceiling: the same bytes, same transport, same concurrency, to a server that only drains them.
    process.stderr.write('raw loopback upload…\n');
    const sink = await startSink();
    let raw;
    let rawNodeHttp;
    try {
      await uploadAll(sink.url, {}, burst.slice(0, 20), CONCURRENCY); // warm-up
      const r = await uploadAll(sink.url, {}, burst, CONCURRENCY);
      raw = {
        ...r,
        mbPerSec: round(bytes / MB / r.seconds, 2),
        sinkVmHWM: procMemory(sink.pid)?.hwmMB ?? null,
      };
      const n = await uploadAllNodeHttp(sink.url, burst, CONCURRENCY);
      rawNodeHttp = { ...n, mbPerSec: round(bytes / MB / n.seconds, 2) };
    } finally {
      await sink.stop();
    }

    // 2. The server alone: POST /correspondence/intake straight from this process, on a fresh server.
    process.stderr.write('server alone (direct intake)…\n');
    const directDir = join(root, 'server-direct');
    const directDb = await freshDatabase();
    const { server, token } = await serverWithScanner(directDir, directDb.url).catch(
      async (error: unknown) => {
        await directDb.drop();
        throw error;
      },
    );
    let alone;
    try {
      const headers = {
        Accept: 'application/json',
        'Accept-Language': 'en',
        Authorization: `Bearer ${token}`,
      };
      if (WARM > 0) await uploadAll(server.url, headers, warmDirect, CONCURRENCY, BATCH); // untimed
      const memory = new MemorySampler({ server: server.pid }, 100);
      memory.phase('uploads');
      const cpuBefore = { server: procCpuSeconds(server.pid), bench: procCpuSeconds('self') };
      const r = await uploadAll(server.url, headers, direct, CONCURRENCY, BATCH);
      memory.stop();
      const spent = (before: number | null, after: number | null) =>
        before === null || after === null ? null : round(after - before, 1);
      const cpuSeconds = {
        server: spent(cpuBefore.server, procCpuSeconds(server.pid)),
        bench: spent(cpuBefore.bench, procCpuSeconds('self')),
      };
      const directBytes = direct.reduce((n, p) => n + p.size, 0);
      // One more request tells the health of the server after the burst.
      const health = await api(server.url, 'GET', '/health');
      alone = {
        ...r,
        mbPerSec: round(directBytes / MB / r.seconds, 2),
        filesPerSec: round(direct.length / r.seconds, 1),
        msPerFilePerSlot: round((r.seconds * 1000 * CONCURRENCY) / direct.length, 1),
        healthAfter: health.status,
        cpuSeconds,
        serverMemoryMB: {
          peakSampledRss: memory.peak('uploads', 'server'),
          vmHWM: procMemory(server.pid)?.hwmMB ?? null,
        },
      };
    } finally {
      await server.stop();
      await directDb.drop();
    }

    // 3. The station.
    process.stderr.write('station burst…\n');
    const stationDb = await freshDatabase();
    const station = await stationRun(root, burst, warmStation, stationDb.url).finally(() => stationDb.drop());

    const share = (mbPerSec: number) => round((100 * mbPerSec) / raw.mbPerSec, 1);
    const result = {
      benchmark: 'station',
      at: new Date().toISOString(),
      settings: {
        files: FILES,
        fileBytes: burst[0]!.size,
        totalMB: round(bytes / MB, 1),
        concurrency: CONCURRENCY,
        batch: BATCH,
        warm: WARM,
        scanMs: SCAN_MS,
        stableMs: STABLE_MS,
        server: `child process: src-server/cli.ts serve, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL, a fresh database)' : 'PGlite'}, defaults otherwise, LOG_LEVEL warn`,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        station: 'child process: src-main/station/cli.ts (headless), a dedicated account',
        cpus: (await import('node:os')).cpus().length,
        node: process.version,
      },
      rawLoopback: raw,
      rawLoopbackNodeHttp: { ...rawNodeHttp, shareOfRaw: share(rawNodeHttp.mbPerSec) },
      serverAlone: { ...alone, shareOfRaw: share(alone.mbPerSec) },
      station: { ...station, shareOfRaw: share(station.mbPerSec) },
      targets: { shareOfRawPercent: TARGET_SHARE, lost: 0, duplicated: 0 },
      met: {
        share: share(station.mbPerSec) >= TARGET_SHARE,
        lost: station.lost === 0,
        duplicated: station.duplicated === 0,
      },
    };
    await writeResults(join(import.meta.dirname, 'results.json'), result);

    const ok = (met: boolean) => (met ? 'met' : 'MISSED');
    const busy = (cpu: number | null, seconds: number) =>
      cpu === null ? null : `${round((100 * cpu) / seconds, 0)}%`;
    const perFile = (cpu: number | null) => (cpu === null ? null : round((1000 * cpu) / FILES, 1));
    console.log(
      `\nStation benchmark: ${FILES} PDFs of ${round(burst[0]!.size / 1024, 0)} KB (${result.settings.totalMB} MB), ` +
        `concurrency ${CONCURRENCY}, batches of ${BATCH}, scan ${SCAN_MS} ms, stable ${STABLE_MS} ms, server on ${result.settings.database}, ` +
        `${result.settings.cpus} CPUs, ${WARM} warm-up files before each timed line\n`,
    );
    console.log(
      table([
        ['line', 'seconds', 'MB/s', 'files/s', 'share of raw', 'target', 'result'],
        [
          'raw loopback upload (drain only)',
          round(raw.seconds, 2),
          raw.mbPerSec,
          round(FILES / raw.seconds, 1),
          '100%',
          '',
          '',
        ],
        [
          'raw loopback, node:http (no fetch)',
          round(rawNodeHttp.seconds, 2),
          rawNodeHttp.mbPerSec,
          round(FILES / rawNodeHttp.seconds, 1),
          `${share(rawNodeHttp.mbPerSec)}%`,
          '',
          '',
        ],
        [
          `server alone (${BATCH > 1 ? `batches of ${BATCH}` : 'POST /intake'})`,
          round(alone.seconds, 2),
          alone.mbPerSec,
          alone.filesPerSec,
          `${share(alone.mbPerSec)}%`,
          '',
          '',
        ],
        [
          'station (drop → all in processed/)',
          station.seconds,
          station.mbPerSec,
          station.filesPerSec,
          `${share(station.mbPerSec)}%`,
          `≥ ${TARGET_SHARE}%`,
          ok(result.met.share),
        ],
      ]),
    );
    console.log('');
    console.log(
      table([
        ['station figure', 'value', 'target', 'result'],
        ['lost (not in processed/ or not on the server)', station.lost, 0, ok(result.met.lost)],
        [
          'duplicated (same content twice, extra documents)',
          station.duplicated,
          0,
          ok(result.met.duplicated),
        ],
        ['in processed/', station.processed, FILES, ''],
        ['in rejected/', station.rejected, 0, ''],
        ['left in the folder', station.leftInFolder, 0, ''],
        [
          'server: documents / incoming drafts',
          `${station.server.documents} / ${station.server.incomingDrafts}`,
          FILES + WARM,
          '',
        ],
        [
          'server: attachments / distinct sha256',
          `${station.server.attachments} / ${station.server.contents}`,
          FILES + WARM,
          '',
        ],
        ['server: intake receipts (with the warm-up)', station.server.receipts, FILES + WARM, ''],
        ['server: files missing (by sha256)', station.server.missingOnServer, 0, ''],
        ['retries the station logged', station.retriesLogged, '', ''],
        [`copying the ${FILES} files in took (s)`, station.dropSeconds, '', ''],
        ['first file in processed/ after (s)', station.firstProcessedSeconds, '', ''],
        ['all done after the last copy (s)', station.afterLastDropSeconds, '', ''],
        ['station RSS idle (MB)', station.stationMemoryMB.idle, '', ''],
        ['station peak RSS sampled (MB)', station.stationMemoryMB.peakSampledRss, '', ''],
        ['station VmHWM (MB)', station.stationMemoryMB.vmHWM, '', ''],
        [
          'server RSS idle / peak sampled / VmHWM (MB)',
          `${station.serverMemoryMB.idle} / ${station.serverMemoryMB.peakSampledRss} / ${station.serverMemoryMB.vmHWM}`,
          '',
          '',
        ],
        ['server alone: ms per file per upload slot', alone.msPerFilePerSlot, '', ''],
        [
          'CPU s during the burst: server / station / this process',
          `${station.cpuSeconds.server} / ${station.cpuSeconds.station} / ${station.cpuSeconds.bench}`,
          '',
          '',
        ],
        [
          'busy during the burst (% of one core): server / station',
          `${busy(station.cpuSeconds.server, station.seconds)} / ${busy(station.cpuSeconds.station, station.seconds)}`,
          '',
          '',
        ],
        [
          'CPU s server alone: server / uploading process',
          `${alone.cpuSeconds.server} / ${alone.cpuSeconds.bench}`,
          '',
          '',
        ],
        ['busy server alone (% of one core): server', busy(alone.cpuSeconds.server, alone.seconds), '', ''],
        [
          'CPU ms per file: server alone / server in burst / station',
          `${perFile(alone.cpuSeconds.server)} / ${perFile(station.cpuSeconds.server)} / ${perFile(station.cpuSeconds.station)}`,
          '',
          '',
        ],
        ['server alone: statuses', JSON.stringify(alone.statuses), '', ''],
        ['raw loopback: statuses', JSON.stringify(raw.statuses), '', ''],
      ]),
    );
    console.log('\nresults: bench/station/results.json');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
