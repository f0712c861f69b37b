/**
 * Exactly once across kill -9: the headless station (`npm run station`, a real child process) is killed
 * at random moments during a burst of 200 files and started again, several times; then every file is
 * accounted for: the valid ones in processed/ and registered once each on the server, the rest
 * (not PDFs, and copies of a file already taken) in rejected/ with their notes, none left behind, none
 * lost, none registered twice. And a 30-page scanned batch that intake cuts into nine documents by its codes
 * (issue 26), the station killed again and again while the server reads it: each part made once, never
 * half the batch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { makeRole, makeUser, startHarness, type Harness } from './support/harness';
import { minimalPdf } from './support/files';
import { labelFacts, scannedBatch } from '../support/paper-batch';
import { organisation, registeredLetter } from './support/correspondence';

let h: Harness;
let baseUrl: string;
let root: string;
let user: { username: string; password: string };

beforeAll(async () => {
  h = await startHarness();
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  const role = await makeRole(h, {
    [PAGES.inboxAdd]: ['add'],
    [PAGES.inboxDrafts]: ['view', 'edit'],
    [PAGES.incoming]: ['view', 'edit'],
  });
  user = await makeUser(h, role);
  root = mkdtempSync(join(tmpdir(), 'sijill-kill-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

const CLI = resolve('src-main/station/cli.ts');

function startStation(
  folder: string,
  dataDir: string,
  once = false,
  account: { username: string; password: string } = user,
): ChildProcess {
  const args = ['--import', 'tsx', CLI, '--folder', folder, '--server', baseUrl, '--user', account.username];
  args.push(
    '--data-dir',
    dataDir,
    '--scan-ms',
    '150',
    '--stable-ms',
    '150',
    '--concurrency',
    '4',
    '--lang',
    'en',
  );
  if (once) args.push('--once');
  return spawn(process.execPath, args, {
    env: { ...process.env, SIJILL_STATION_PASSWORD: account.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the station killed during a burst', () => {
  it(
    'loses no file and registers none twice',
    async () => {
      const folder = join(root, 'scans');
      const dataDir = join(root, 'station');
      mkdirSync(folder);
      // 200 files: 190 distinct PDFs, 6 that are not PDFs, 4 copies of PDFs already in the burst.
      const files: [string, Buffer][] = [];
      for (let i = 0; i < 190; i++)
        files.push([`scan-${String(i).padStart(3, '0')}.pdf`, minimalPdf(`burst ${i}`)]);
      for (let i = 0; i < 6; i++) files.push([`junk-${i}.pdf`, Buffer.from(`not a pdf ${i} `.repeat(50))]);
      for (let i = 0; i < 4; i++) files.push([`copy-${i}.pdf`, minimalPdf(`burst ${i * 40}`)]);
      // Shuffled (seeded), so copies may arrive before their originals.
      let seed = 20261125;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      files.sort(() => random() - 0.5);

      const log: string[] = [];
      let dropped = 0;
      const kills: number[] = [];
      for (let round = 0; round < 5; round++) {
        const child = startStation(folder, dataDir);
        child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
        child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
        // Drop the next part of the burst while it runs, then kill it without warning.
        const until = Math.min(files.length, dropped + 40);
        for (; dropped < until; dropped += 10) {
          for (const [name, bytes] of files.slice(dropped, dropped + 10))
            writeFileSync(join(folder, name), bytes);
          await sleep(60);
        }
        const lifetime = 1500 + Math.floor(random() * 2500);
        await sleep(lifetime);
        kills.push(lifetime);
        child.kill('SIGKILL');
        await exited(child);
      }
      expect(dropped).toBe(200);

      const last = startStation(folder, dataDir, true);
      let output = '';
      last.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      last.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      // A guard against a hang, not a speed limit: the last run ends by itself once the folder is empty.
      const code = await Promise.race([exited(last), sleep(8 * 60_000).then(() => 'timeout' as const)]);
      if (code === 'timeout') last.kill('SIGKILL');
      expect(code, `${log.join('').slice(-1500)}\n--- last run ---\n${output.slice(-1500)}`).toBe(0);

      const left = readdirSync(folder).filter((f) => f.endsWith('.pdf'));
      const processed = readdirSync(join(folder, 'processed'));
      const rejected = readdirSync(join(folder, 'rejected'));
      expect(left).toEqual([]);
      expect(processed.length + rejected.filter((f) => f.endsWith('.pdf')).length).toBe(200);
      expect(processed).toHaveLength(190);
      expect(rejected.filter((f) => f.endsWith('.pdf'))).toHaveLength(10);
      expect(rejected.filter((f) => f.endsWith('.pdf.txt'))).toHaveLength(10);

      const [server] = await h.query<{
        receipts: number;
        attachments: number;
        contents: number;
        documents: number;
      }>(
        `select (select count(*) from intake_receipts)::int as receipts,
              (select count(*) from document_attachments)::int as attachments,
              (select count(distinct sha256) from document_attachments)::int as contents,
              (select count(*) from documents)::int as documents`,
      );
      expect(server).toEqual({ receipts: 190, attachments: 190, contents: 190, documents: 190 });
    },
    12 * 60_000,
  );

  it(
    'makes each part of a batch cut by its codes once, never half the batch',
    async () => {
      const org = await organisation(h);
      const letters = [
        await registeredLetter(h, org),
        await registeredLetter(h, org),
        await registeredLetter(h, org),
      ];
      const batch = await scannedBatch(labelFacts(letters), 11);
      const folder = join(root, 'batch');
      const dataDir = join(root, 'batch-station');
      mkdirSync(folder);
      writeFileSync(join(folder, 'دفعة 30 صفحة.pdf'), batch.bytes);
      // The clerk's own station: org.clerk files on the three letters and makes incoming drafts (the
      // harness gives its users this password).
      const [clerk] = await h.query<{ username: string }>(
        `select username from users where id = ${org.clerk.userId}`,
      );
      const station = { username: clerk!.username, password: 'correct-horse-1' };
      const before = await h.query<{ documents: number; attachments: number }>(
        `select (select count(*) from documents)::int as documents,
                (select count(*) from document_attachments)::int as attachments`,
      );
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const log: string[] = [];
      for (let round = 0; round < 4; round++) {
        const child = startStation(folder, dataDir, false, station);
        child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
        child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
        // Killed while the batch is on its way or being read (reading 30 pages takes several seconds).
        await sleep(1500 + Math.floor(random() * 6000));
        child.kill('SIGKILL');
        await exited(child);
      }
      const last = startStation(folder, dataDir, true, station);
      let output = '';
      last.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      last.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      const code = await Promise.race([exited(last), sleep(8 * 60_000).then(() => 'timeout' as const)]);
      if (code === 'timeout') last.kill('SIGKILL');
      expect(code, `${log.join('').slice(-1500)}\n--- last run ---\n${output.slice(-1500)}`).toBe(0);
      expect(readdirSync(join(folder, 'processed'))).toEqual(['دفعة 30 صفحة.pdf']);

      const drafts = batch.expected.filter((p) => p.number === null).length;
      const [after] = await h.query<{ documents: number; attachments: number }>(
        `select (select count(*) from documents)::int as documents,
                (select count(*) from document_attachments)::int as attachments`,
      );
      expect(after).toEqual({
        documents: before[0]!.documents + drafts,
        attachments: before[0]!.attachments + batch.expected.length,
      });
      // Each part once, with its pages, on the document it belongs to.
      const parts = await h.query<{ doc_number: string | null; pages: number[] }>(
        `select d.doc_number, r.pages from intake_receipts r join documents d on d.id = r.document_id
          where r.user_id = ${org.clerk.userId} and r.pages is not null
          order by r.pages[1]`,
      );
      expect(parts.map((p) => ({ pages: p.pages, number: p.doc_number }))).toEqual(batch.expected);
    },
    12 * 60_000,
  );
});
