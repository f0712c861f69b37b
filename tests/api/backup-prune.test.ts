/**
 * Pruning and removing backups (issue 29; src-server/backup/prune.ts, docs/backups.md), on the embedded
 * PGlite or on PostgreSQL with SIJILL_TEST_DATABASE_URL. A real backup made by the server is copied into
 * older backups (its manifest's time changed), beside folders that are not ours to remove: one without a
 * manifest, one holding a file its manifest does not list, one whose manifest is another program's.
 *
 * - After an administrator's backup the server removes what the rule lets go (BACKUP_KEEP_LAST=2,
 *   BACKUP_KEEP_MONTHLY=2 here), each removal in the audit log, and leaves the rest; the list says what the
 *   rule does with each backup.
 * - An administrator deletes one backup by name; refused for the newest complete one, a folder without a
 *   manifest or not wholly a backup (a stranger's file at its top or deep in it), names not listed, and
 *   users without the page's `delete`.
 * - A backup being written (its copy held half-way) is never removed, by the pruning or by name.
 * - The command line: `backup --prune ROOT --dry-run` lists and removes nothing, `backup --prune ROOT`
 *   removes and writes the audit log of the installation it is configured for (not while the embedded
 *   database is held by a running server: it says so and prunes all the same); a backup holding a
 *   stranger's file is left whatever the rule says; bad usage exits 2.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, type BackupSource } from '../../src-server/backup/backup';
import { runBackupCommand } from '../../src-server/backup/commands';
import { loadConfig } from '../../src-server/config';
import { verifyBackup } from '../../src-server/backup/manifest';
import { planPrune, pruneBackups } from '../../src-server/backup/prune';
import type { PGlite as PGliteType } from '@electric-sql/pglite';
import { createLocalFileStore, type FileStore } from '../../src-server/storage/files';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { organisation, type Org } from './support/correspondence';
import { letterWithAttachment } from './support/backup';

const ROOT = resolve(import.meta.dirname, '../..');
const PG_URL = process.env.SIJILL_TEST_DATABASE_URL;

const temps: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `sijill-${name}-`));
  temps.push(dir);
  return dir;
};

let h: Harness;
let org: Org;
let backupDir: string;
/** The backup the server made first: the others are copies of it. */
let first: string;

beforeAll(async () => {
  backupDir = temp('backups');
  h = await startHarness({
    DATA_DIR: temp('data'),
    BACKUP_DIR: backupDir,
    BACKUP_KEEP_LAST: '2',
    BACKUP_KEEP_MONTHLY: '2',
    ORG_TIME_ZONE: 'UTC',
  });
  org = await organisation(h);
  await letterWithAttachment(h, org, 'pruned');
  first = await backUp();
}, 180_000);
afterAll(async () => {
  await h?.close();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** An administrator's "Back up now"; answers the new backup's name. */
async function backUp(): Promise<string> {
  const made = await call(h, { method: 'POST', url: '/admin/backup', token: org.admin.token });
  if (made.status !== 201) throw new Error(`backup: ${made.status} ${JSON.stringify(made.json)}`);
  return made.json.data.name as string;
}

/** A copy of a backup folder as if it had been made at `createdAt`, named `name`, in `root`. */
function copyAs(root: string, from: string, name: string, createdAt: string): string {
  const dir = join(root, name);
  cpSync(from, dir, { recursive: true });
  rmSync(join(dir, 'verify.json'), { force: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { createdAt: string };
  manifest.createdAt = createdAt;
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

const folders = (root: string) => readdirSync(root).sort();

const audited = (action: string) =>
  h.query<{ target_id: string; actor_id: number | null; actor_username: string | null; details: unknown }>(
    `select target_id, actor_id, actor_username, details from audit_log where action = '${action}' order by id`,
  );

/** The harness's own PostgreSQL database (its name beside SIJILL_TEST_DATABASE_URL). */
async function databaseUrl(): Promise<string> {
  const [row] = await h.query<{ name: string }>('select current_database() as name');
  const url = new URL(PG_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}

/** Runs `npm run server -- backup ARGS` as a process; answers its exit code and output. */
function cli(args: string[], env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(base))
    if (key.startsWith('VITEST') || key.startsWith('BACKUP_') || key === 'DATABASE_URL') delete base[key];
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src-server/cli.ts', 'backup', ...args], {
    cwd: ROOT,
    env: { ...base, LOG_LEVEL: 'silent', ORG_TIME_ZONE: 'UTC', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe(`pruning backups (${PG_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it(
    'after each backup the server removes what the rule lets go, audited, and leaves what is not ours',
    { timeout: 180_000 },
    async () => {
      const from = join(backupDir, first);
      // Older backups: two in March 2020 (the 20th is its month's newest), one in February, one in
      // January, and one named as the command line's users name theirs.
      copyAs(backupDir, from, '20200320-090000-000', '2020-03-20T09:00:00.000Z');
      copyAs(backupDir, from, '20200305-090000-000', '2020-03-05T09:00:00.000Z');
      copyAs(backupDir, from, '20200210-090000-000', '2020-02-10T09:00:00.000Z');
      copyAs(backupDir, from, '20200110-090000-000', '2020-01-10T09:00:00.000Z');
      copyAs(backupDir, from, 'nightly-2020-01-05', '2020-01-05T09:00:00.000Z');
      // Not ours to remove, however old: no manifest (a backup being written elsewhere, or failed)...
      mkdirSync(join(backupDir, '20190101-000000-000'));
      writeFileSync(join(backupDir, '20190101-000000-000', 'database.pglite.tar'), 'half');
      // ...a backup someone put a file of their own into...
      copyAs(backupDir, from, '20190201-000000-000', '2019-02-01T00:00:00.000Z');
      writeFileSync(join(backupDir, '20190201-000000-000', 'notes.txt'), 'keep me');
      // ...another program's manifest, and a plain file beside the folders.
      mkdirSync(join(backupDir, '20190301-000000-000'));
      writeFileSync(
        join(backupDir, '20190301-000000-000', 'manifest.json'),
        JSON.stringify({ format: 1, app: 'other', files: [] }),
      );
      writeFileSync(join(backupDir, 'README.txt'), 'our backups');
      // A removal cut short: finished by the next pruning.
      mkdirSync(join(backupDir, '.removing-20180101-000000-000', 'files'), { recursive: true });

      const newest = await backUp();
      const made = (name: string) =>
        JSON.parse(readFileSync(join(backupDir, name, 'manifest.json'), 'utf8')) as { createdAt: string };
      // The two newest, and the newest of the two latest months with a backup: this month's (the newest)
      // and March 2020's — unless the first backup was made in the month before (a test run at midnight).
      const sameMonth = made(first).createdAt.slice(0, 7) === made(newest).createdAt.slice(0, 7);
      const kept = [newest, first, ...(sameMonth ? ['20200320-090000-000'] : [])];
      const gone = [
        ...(sameMonth ? [] : ['20200320-090000-000']),
        '20200305-090000-000',
        '20200210-090000-000',
        '20200110-090000-000',
        'nightly-2020-01-05',
      ];
      expect(folders(backupDir)).toEqual(
        [...kept, '20190101-000000-000', '20190201-000000-000', '20190301-000000-000', 'README.txt'].sort(),
      );
      expect(readFileSync(join(backupDir, '20190201-000000-000', 'notes.txt'), 'utf8')).toBe('keep me');

      // Each removal in the audit log, by whoever asked for the backup.
      const pruned = await audited('backups.pruned');
      expect(pruned.map((r) => r.target_id).sort()).toEqual([...gone].sort());
      expect(pruned.every((r) => r.actor_id === org.admin.userId)).toBe(true);
      expect(pruned.find((r) => r.target_id === '20200305-090000-000')!.details).toMatchObject({
        createdAt: '2020-03-05T09:00:00.000Z',
        keepLast: 2,
        keepMonthly: 2,
      });

      // The list says what the rule does with each; the rule itself is one request away.
      const list = await call(h, { method: 'GET', url: '/admin/backups', token: org.admin.token });
      expect(list.status).toBe(200);
      const retention = Object.fromEntries(
        (list.json.data as { name: string; retention: string }[]).map((b) => [b.name, b.retention]),
      );
      expect(retention).toEqual({
        [newest]: 'newest',
        [first]: 'last',
        ...(sameMonth ? { '20200320-090000-000': 'monthly' } : {}),
        '20190101-000000-000': 'outside',
        '20190201-000000-000': 'outside',
        '20190301-000000-000': 'outside',
      });
      const rule = await call(h, { method: 'GET', url: '/admin/backups/retention', token: org.admin.token });
      expect(rule.json.data).toEqual({ keepLast: 2, keepMonthly: 2, timeZone: 'UTC' });
      // A backup the rule would now let go shows as such (it goes at the next backup).
      copyAs(backupDir, join(backupDir, first), '20200601-000000-000', '2020-06-01T00:00:00.000Z');
      copyAs(backupDir, join(backupDir, first), '20200602-000000-000', '2020-06-02T00:00:00.000Z');
      const again = await call(h, { method: 'GET', url: '/admin/backups', token: org.admin.token });
      const states = Object.fromEntries(
        (again.json.data as { name: string; retention: string }[]).map((b) => [b.name, b.retention]),
      );
      expect(states['20200601-000000-000']).toBe('expired');
      expect(states['20200602-000000-000']).toBe(sameMonth ? 'monthly' : 'expired');
      rmSync(join(backupDir, '20200601-000000-000'), { recursive: true });
      rmSync(join(backupDir, '20200602-000000-000'), { recursive: true });
    },
  );

  it('an administrator deletes one backup by name; never the newest, nor what is not wholly a backup', async () => {
    const list = await call(h, { method: 'GET', url: '/admin/backups', token: org.admin.token });
    const complete = (list.json.data as { name: string; state: string; retention: string }[]).filter(
      (b) => b.retention !== 'outside',
    );
    const newest = complete.find((b) => b.retention === 'newest')!.name;
    const older = complete.find((b) => b.retention !== 'newest')!.name;
    const remove = (name: string, token = org.admin.token, lang?: 'ar' | 'en') =>
      call(h, { method: 'DELETE', url: `/admin/backups/${name}`, token, ...(lang ? { lang } : {}) });

    const refusedNewest = await remove(newest, org.admin.token, 'en');
    expect([refusedNewest.status, refusedNewest.json.code]).toEqual([409, 'backup.newest']);
    expect(refusedNewest.json.detail).toMatch(/newest complete backup/);
    expect((await remove(newest, org.admin.token, 'ar')).json.detail).toMatch(/أحدث نسخة احتياطية مكتملة/);
    const unfinished = await remove('20190101-000000-000');
    expect([unfinished.status, unfinished.json.code]).toEqual([409, 'backup.unfinishedKept']);
    for (const name of ['20190201-000000-000', '20190301-000000-000']) {
      const foreign = await remove(name);
      expect([name, foreign.status, foreign.json.code]).toEqual([name, 409, 'backup.foreign']);
    }
    // A file of someone else's deep in a backup's folder: the list reads manifests only, the removal walks.
    const stray = copyAs(
      backupDir,
      join(backupDir, newest),
      '20200801-000000-000',
      '2020-08-01T00:00:00.000Z',
    );
    mkdirSync(join(stray, 'files', 'zz'), { recursive: true });
    writeFileSync(join(stray, 'files', 'zz', 'scan.pdf'), '%PDF-');
    const deep = await remove('20200801-000000-000');
    expect([deep.status, deep.json.code]).toEqual([409, 'backup.foreign']);
    expect(readFileSync(join(stray, 'files', 'zz', 'scan.pdf'), 'utf8')).toBe('%PDF-');
    rmSync(stray, { recursive: true });
    expect((await remove('19990101-000000-000')).status).toBe(404);
    for (const name of ['manifest.json', '..%2F..%2Fetc', 'nightly-2020-01-05'])
      expect([name, (await remove(name)).status]).toEqual([name, 400]);
    // Without the page's delete: a clerk, and a role that may only view and back up.
    expect((await remove(older, org.clerk.token)).status).toBe(403);
    const operator = await makeUser(h, await makeRole(h, { [PAGES.backups]: ['view', 'add'] }));
    expect((await remove(older, await signIn(h, operator))).status).toBe(403);
    for (const name of [newest, older, '20190101-000000-000', '20190201-000000-000', '20190301-000000-000'])
      expect(existsSync(join(backupDir, name))).toBe(true);

    const done = await remove(older, org.admin.token, 'en');
    expect(done.status).toBe(200);
    expect(done.json.returnMessage).toBe('The backup was deleted');
    expect(existsSync(join(backupDir, older))).toBe(false);
    expect((await remove(older)).status).toBe(404);
    const deleted = await audited('backups.deleted');
    expect(deleted).toEqual([expect.objectContaining({ target_id: older, actor_id: org.admin.userId })]);
    // A role given the page's delete may delete too (the administrator's is not a special case).
    const keeper = await makeUser(h, await makeRole(h, { [PAGES.backups]: ['view', 'delete'] }));
    const extra = copyAs(
      backupDir,
      join(backupDir, newest),
      '20200701-000000-000',
      '2020-07-01T00:00:00.000Z',
    );
    expect((await remove('20200701-000000-000', await signIn(h, keeper))).status).toBe(200);
    expect(existsSync(extra)).toBe(false);
  });

  it('never removes a backup being written, by the pruning or by name', { timeout: 120_000 }, async () => {
    // A backup whose copy of the stored files is held half-way (the database is dumped, no manifest yet).
    await letterWithAttachment(h, org, 'held');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const store = createLocalFileStore(h.filesDir);
    const gated: FileStore = Object.assign(Object.create(store) as FileStore, {
      open: (sha256: string) => {
        const out = new PassThrough();
        void held.then(() => {
          const stored = store.open(sha256);
          stored.on('error', (error) => out.destroy(error));
          stored.pipe(out);
        });
        return out;
      },
    });
    const source: BackupSource = PG_URL
      ? { kind: 'postgres', url: await databaseUrl() }
      : { kind: 'pglite', client: (h.database.db as unknown as { $client: PGliteType }).$client };
    const name = '20300101-000000-000'; // made last: once whole, the newest
    const dir = join(backupDir, name);
    const writing = createBackup({
      dir,
      source,
      files: gated,
      fileStore: 'local',
      dataDir: h.config.DATA_DIR,
    });
    while (!existsSync(join(dir, 'files'))) await new Promise((r) => setTimeout(r, 20));

    const { plan } = await pruneBackups(backupDir, { keepLast: 1, keepMonthly: 0, timeZone: 'UTC' });
    expect(plan.find((i) => i.name === name)).toEqual({ kind: 'unfinished', name });
    const byName = await call(h, { method: 'DELETE', url: `/admin/backups/${name}`, token: org.admin.token });
    expect([byName.status, byName.json.code]).toEqual([409, 'backup.unfinishedKept']);
    expect(existsSync(dir)).toBe(true);

    release();
    await writing;
    expect((await verifyBackup(dir)).problems).toEqual([]);
    // Whole now, and the newest: it stays; the one before it went with the rule of one.
    expect((await planPrune(backupDir, { keepLast: 1, keepMonthly: 0, timeZone: 'UTC' }))[0]).toMatchObject({
      name,
      newest: true,
    });
  });

  it(
    'the command line prunes a folder: a dry run first, then for real, in the installation’s audit log',
    { timeout: 300_000 },
    async () => {
      const root = temp('cli-backups');
      const [source] = (await planPrune(backupDir, { keepLast: 1, keepMonthly: 0, timeZone: 'UTC' })).filter(
        (i) => i.kind === 'backup',
      );
      const from = join(backupDir, source!.name);
      copyAs(root, from, '2021-05-02', '2021-05-02T01:00:00.000Z');
      copyAs(root, from, '2021-05-01', '2021-05-01T01:00:00.000Z');
      copyAs(root, from, '2021-04-30', '2021-04-30T01:00:00.000Z');
      copyAs(root, from, '2021-04-29', '2021-04-29T01:00:00.000Z');
      mkdirSync(join(root, '2021-05-03')); // being written: no manifest yet
      // An old backup with a file of someone else's deep in it: left, whatever the rule says.
      copyAs(root, from, '2021-04-27', '2021-04-27T01:00:00.000Z');
      mkdirSync(join(root, '2021-04-27', 'files', 'zz'), { recursive: true });
      writeFileSync(join(root, '2021-04-27', 'files', 'zz', 'scan.pdf'), '%PDF-');
      const before = folders(root);
      const rule = { BACKUP_KEEP_LAST: '1', BACKUP_KEEP_MONTHLY: '2' };

      // The installation's database: PostgreSQL (the harness's), or an embedded one the command opens.
      const dataDir = temp('cli-data');
      let env: Record<string, string>;
      if (PG_URL) env = { DATA_DIR: dataDir, DATABASE_URL: await databaseUrl() };
      else {
        env = { DATA_DIR: dataDir };
        const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'src-server/cli.ts', 'migrate'], {
          cwd: ROOT,
          env: { ...process.env, ...env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect(migrated.status, migrated.stderr).toBe(0);
      }

      // Bad usage (the command's own function: a process each would only cost its start).
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
      expect(await runBackupCommand(config, ['--dry-run', root])).toBe(2);
      expect(await runBackupCommand(config, ['--verify', '--prune', root])).toBe(2);
      expect(await runBackupCommand(config, ['--prune', root, 'another'])).toBe(2);
      expect(await runBackupCommand(config, ['--keep', root])).toBe(2);
      expect(folders(root)).toEqual(before);

      // A dry run (of BACKUP_DIR when no folder is named) lists and removes nothing.
      const dry = cli(['--prune', '--dry-run'], { ...env, ...rule, BACKUP_DIR: root });
      expect(dry.code, dry.out).toBe(0);
      expect(dry.out).toMatch(/KEEP\s+2021-05-02 .*the newest/);
      expect(dry.out).toMatch(/KEEP\s+2021-04-30 .*the newest of 2021-04/);
      expect(dry.out).toMatch(/WOULD REMOVE\s+2021-05-01 /);
      expect(dry.out).toMatch(/WOULD REMOVE\s+2021-04-29 /);
      expect(dry.out).toMatch(/LEAVE\s+2021-05-03 .*no manifest/);
      expect(dry.out).toMatch(
        /LEAVE\s+2021-04-27 .*not wholly a backup of ours: holds 1 file\(s\) .*files\/zz\/scan\.pdf/,
      );
      expect(dry.out).toMatch(/Dry run: 2 backup\(s\) .* would be removed; nothing was\./);
      expect(folders(root)).toEqual(before);

      const real = cli(['--prune', root], { ...env, ...rule });
      expect(real.code, real.out).toBe(0);
      expect(real.out).toMatch(/REMOVE\s+2021-05-01 /);
      expect(real.out).toMatch(/Removed 2 backup\(s\)/);
      expect(folders(root)).toEqual(['2021-04-27', '2021-04-30', '2021-05-02', '2021-05-03']);

      // In the audit log of the installation the command is configured for, by "cli".
      const entries = async () => {
        const sql = `select target_id, actor_username from audit_log where action = 'backups.pruned' and actor_username = 'cli' order by id`;
        if (PG_URL) return h.query<{ target_id: string; actor_username: string }>(sql);
        const db = await PGlite.create(join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
        try {
          return (await db.query<{ target_id: string; actor_username: string }>(sql)).rows;
        } finally {
          await db.close();
        }
      };
      expect((await entries()).map((e) => e.target_id).sort()).toEqual(['2021-04-29', '2021-05-01']);

      if (!PG_URL) {
        // While a server holds the embedded database, the command prunes all the same and says that the
        // removal is not in the audit log (the server's own pruning is).
        copyAs(root, from, '2021-04-28', '2021-04-28T01:00:00.000Z');
        writeFileSync(join(dataDir, 'pgdata', 'postmaster.pid'), '1\n');
        const held = cli(['--prune', root], { ...env, ...rule });
        expect(held.code, held.out).toBe(0);
        expect(held.out).toMatch(/not in the audit log: the running server holds the embedded database/);
        expect(folders(root)).toEqual(['2021-04-27', '2021-04-30', '2021-05-02', '2021-05-03']);
        rmSync(join(dataDir, 'pgdata', 'postmaster.pid'));
        expect(await entries()).toHaveLength(2);
      }
    },
  );
});
