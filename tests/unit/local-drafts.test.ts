/**
 * Local drafts (issue 14) against the real API server (PGlite in a temporary folder), stopped and
 * started during the test: drafts and their PDFs are kept sealed on the desk while the server is away,
 * sent in order once it is back, exactly once (a lost answer retried makes no second draft, a file the
 * server holds is not sent again); a draft changed on the server meanwhile is a conflict, settled by the
 * clerk's choice; two users of one desk never see each other's drafts; the sealed store holds no clear
 * text, and a tampered record or file is refused.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-server/config';
import { startServer, type RunningServer } from '../../src-server/server';
import { ApiClient } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';
import { LocalDrafts, type DraftOwner } from '../../src-main/drafts/drafts';
import {
  fileProtector,
  loadDraftKey,
  openSealedFile,
  seal,
  sealFile,
  unseal,
} from '../../src-main/drafts/crypto';
import { IpcFailure } from '../../src-main/ipc/dispatch';
import { IPC_ERRORS } from '../../src-shared/ipc/contract';
import { PAGES } from '../../src-shared/pages';
import { Api } from '../e2e/support/api';
import { minimalPdf } from '../api/support/files';

let server: RunningServer | null = null;
let serverDir: string;
let deskDir: string;
let port = 0;
let admin: Api;
let clerk: Api;
let clerkId: number;
let adminId: number;

const start = async () => {
  server = await startServer({
    ...loadConfig({ NODE_ENV: 'test' }),
    HOST: '127.0.0.1',
    PORT: port,
    DATA_DIR: serverDir,
    AUTH_RATE_LIMIT_PER_MINUTE: 0,
  });
  port = Number(new URL(server.url).port);
};
const stop = async () => {
  await server?.close();
  server = null;
};
const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  serverDir = mkdtempSync(join(tmpdir(), 'sijill-drafts-server-'));
  deskDir = mkdtempSync(join(tmpdir(), 'sijill-drafts-desk-'));
  await start();
  admin = await Api.administrator(base());
  adminId = (await admin.ok<{ id: number }>('GET', '/auth/profile')).id;
  const role = await admin.createRole('Drafting clerk', {
    [PAGES.inboxAdd]: ['add'],
    [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
  });
  clerkId = await admin.createUser({ username: 'clerk', password: 'Clerk#2026', roleId: role });
  clerk = new Api(base());
  await clerk.signIn('clerk', 'Clerk#2026');
}, 120_000);

afterAll(async () => {
  await stop();
  rmSync(serverDir, { recursive: true, force: true });
  rmSync(deskDir, { recursive: true, force: true });
});

/** One desk: its store, the signed-in user's token in the vault, the drafts service. */
function desk(dir: string, who: { api: Api; id: number }) {
  const store = LocalStore.open(join(dir, 'client.sqlite'));
  const vault = new MemoryVault();
  vault.setToken(who.api.accessToken!);
  const api = new ApiClient({ baseUrl: base, vault, store, timeoutMs: 5000 });
  let owner: DraftOwner | null = { userId: who.id, server: base() };
  const drafts = new LocalDrafts({
    store,
    api,
    key: loadDraftKey(join(dir, 'drafts.key'), fileProtector),
    dir: join(dir, 'drafts'),
    owner: () => owner,
    settleMs: 0,
  });
  return {
    dir,
    store,
    api,
    drafts,
    vault,
    signOut: () => {
      owner = null;
    },
    as: (next: { api: Api; id: number }) => {
      owner = { userId: next.id, server: base() };
      vault.setToken(next.api.accessToken!);
    },
    close: () => {
      api.connection.close();
      store.close();
    },
  };
}

async function attach(drafts: LocalDrafts, id: string, bytes: Buffer, name: string) {
  const answer = await drafts.receiveFile(
    `/local-drafts/${id}/files`,
    Readable.toWeb(Readable.from([bytes])) as unknown as ReadableStream<Uint8Array>,
    name,
  );
  return { status: answer.status, body: (await answer.json()) as { data?: { id: string } } };
}

async function serverDrafts(api: Api) {
  return (
    await api.ok<{ items: { documentId: number; subject: string }[] }>(
      'GET',
      '/correspondence/boxes/inbox-drafts?page=1&pageSize=100',
    )
  ).items;
}

describe('local drafts', () => {
  it('keep drafts and PDFs while the server is away, and send them in order, once, when it is back', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'a-')), { api: clerk, id: clerkId });
    try {
      await stop();
      const first = d.drafts.save({
        direction: 'in',
        fields: { subject: 'خطاب وزارة المالية بشأن الميزانية' },
      });
      const pdf = minimalPdf('ميزانية ٢٠٢٦');
      expect((await attach(d.drafts, first.id, pdf, 'ميزانية.pdf')).status).toBe(201);
      expect((await attach(d.drafts, first.id, Buffer.from('not a pdf'), 'x.pdf')).status).toBe(415);
      const second = d.drafts.save({
        direction: 'in',
        fields: { subject: 'Second letter', summary: 'typed offline' },
      });
      d.drafts.save({ id: second.id, direction: 'in', fields: { subject: 'Second letter, edited' } });
      const third = d.drafts.save({ direction: 'in', fields: { subject: 'Third letter' } });

      // Nothing in clear on disk: not the subject, not the file's bytes (the database and its WAL).
      for (const file of readdirSync(d.dir).filter((n) => n.startsWith('client.sqlite'))) {
        const text = readFileSync(join(d.dir, file));
        expect(text.includes(Buffer.from('Second letter'))).toBe(false);
        expect(text.includes(Buffer.from('وزارة المالية'))).toBe(false);
      }
      const sealedFiles = readdirSync(join(d.dir, 'drafts'));
      expect(sealedFiles).toHaveLength(1);
      for (const name of sealedFiles)
        expect(readFileSync(join(d.dir, 'drafts', name)).includes(pdf.subarray(0, 64))).toBe(false);

      // The server away: everything waits, nothing is lost.
      const away = await d.drafts.sync();
      expect(away.counts).toEqual({ waiting: 3, conflicts: 0, failed: 0 });
      expect(d.drafts.get(first.id)).toMatchObject({
        files: 1,
        fileList: [{ name: 'ميزانية.pdf', size: pdf.length }],
      });

      await start();
      const back = await d.drafts.sync();
      expect(back.counts).toEqual({ waiting: 0, conflicts: 0, failed: 0 });
      const made = await serverDrafts(clerk);
      const subjects = made.map((m) => m.subject);
      expect(subjects.filter((s) => s === 'خطاب وزارة المالية بشأن الميزانية')).toHaveLength(1);
      expect(subjects.filter((s) => s === 'Second letter, edited')).toHaveLength(1);
      // Sent in the order they were written: the server's ids grow the same way.
      const ids = [first, second, third].map((dr) => d.store.drafts().get(dr.id)!.server_id!);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      const doc = await clerk.ok<{
        attachments: { fileName: string; size: number }[];
        summary: string | null;
      }>('GET', `/correspondence/documents/${ids[0]}`);
      expect(doc.attachments).toEqual([
        expect.objectContaining({ fileName: 'ميزانية.pdf', size: pdf.length }),
      ]);
      expect(readdirSync(join(d.dir, 'drafts'))).toEqual([]);

      // A retry after a lost answer (the desk never heard the server's id) finds the same server draft.
      const row = d.store.drafts().get(third.id)!;
      d.store.drafts().detach(third.id, row.idem_key);
      await d.drafts.sync();
      expect((await serverDrafts(clerk)).filter((m) => m.subject === 'Third letter')).toHaveLength(1);
      expect(d.store.drafts().get(third.id)!.server_id).toBe(row.server_id);
    } finally {
      d.close();
    }
  }, 120_000);

  it('an answer lost, then the draft edited: the same server draft is found and takes the edit', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'h-')), { api: clerk, id: clerkId });
    try {
      const saved = d.drafts.save({ direction: 'in', fields: { subject: 'Lost answer, first words' } });
      // The create reaches the server, but its answer never reaches the desk.
      const request = d.api.request.bind(d.api);
      let lost = 0;
      d.api.request = async (req, headers) => {
        const answer = await request(req, headers);
        if (req.method === 'POST' && req.path === '/correspondence/documents' && lost++ === 0)
          throw new IpcFailure(IPC_ERRORS.serverUnreachable);
        return answer;
      };
      expect((await d.drafts.sync()).counts).toEqual({ waiting: 1, conflicts: 0, failed: 0 });
      expect(d.store.drafts().get(saved.id)!.server_id).toBeNull();
      d.drafts.save({
        id: saved.id,
        direction: 'in',
        fields: { subject: 'Lost answer, edited since', summary: 'typed after the lost answer' },
      });
      expect((await d.drafts.sync()).counts).toEqual({ waiting: 0, conflicts: 0, failed: 0 });
      const made = (await serverDrafts(clerk)).filter((m) => m.subject.startsWith('Lost answer'));
      expect(made.map((m) => m.subject)).toEqual(['Lost answer, edited since']);
      const row = d.store.drafts().get(saved.id)!;
      expect(row.server_id).toBe(made[0]!.documentId);
      expect(row.sent).toBeNull();
      const doc = await clerk.ok<{ summary: string | null }>(
        'GET',
        `/correspondence/documents/${row.server_id}`,
      );
      expect(doc.summary).toBe('typed after the lost answer');
      expect(lost).toBe(2); // the create was sent twice, under one key: one draft
    } finally {
      d.close();
    }
  }, 120_000);

  it('a draft changed on the server meanwhile is a conflict: nothing is overwritten until the clerk chooses', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'b-')), { api: clerk, id: clerkId });
    try {
      const saved = d.drafts.save({ direction: 'in', fields: { subject: 'Conflict letter' } });
      await d.drafts.sync();
      const serverId = d.store.drafts().get(saved.id)!.server_id!;
      // Edited on this desk, and meanwhile from another desk.
      d.drafts.save({ id: saved.id, direction: 'in', fields: { subject: 'Conflict letter (this desk)' } });
      await clerk.ok('PUT', `/correspondence/documents/${serverId}`, {
        subject: 'Conflict letter (other desk)',
      });
      const after = await d.drafts.sync();
      expect(after.counts.conflicts).toBe(1);
      const detail = d.drafts.get(saved.id);
      expect(detail.state).toBe('conflict');
      expect(detail.fields).toMatchObject({ subject: 'Conflict letter (this desk)' });
      expect(detail.theirs).toMatchObject({ subject: 'Conflict letter (other desk)' });
      expect(
        (await clerk.ok<{ subject: string }>('GET', `/correspondence/documents/${serverId}`)).subject,
      ).toBe('Conflict letter (other desk)');

      // This desk's version chosen: sent over the other.
      const resolved = await d.drafts.resolve(saved.id, 'mine');
      expect(resolved.counts).toEqual({ waiting: 0, conflicts: 0, failed: 0 });
      expect(
        (await clerk.ok<{ subject: string }>('GET', `/correspondence/documents/${serverId}`)).subject,
      ).toBe('Conflict letter (this desk)');

      // Once more, the server's version chosen: the server keeps it.
      d.drafts.save({ id: saved.id, direction: 'in', fields: { subject: 'Third try (this desk)' } });
      await clerk.ok('PUT', `/correspondence/documents/${serverId}`, { subject: 'Third try (other desk)' });
      expect((await d.drafts.sync()).counts.conflicts).toBe(1);
      await d.drafts.resolve(saved.id, 'theirs');
      expect(
        (await clerk.ok<{ subject: string }>('GET', `/correspondence/documents/${serverId}`)).subject,
      ).toBe('Third try (other desk)');
      expect(d.drafts.list().drafts).toEqual([]);
    } finally {
      d.close();
    }
  }, 120_000);

  it('two users of one desk never see each other’s drafts; signed out, nothing is listed or sent', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'c-')), { api: clerk, id: clerkId });
    try {
      await stop();
      const mine = d.drafts.save({ direction: 'in', fields: { subject: 'The clerk’s private draft' } });
      d.as({ api: admin, id: adminId });
      expect(d.drafts.list().drafts).toEqual([]);
      expect(() => d.drafts.get(mine.id)).toThrow(IpcFailure);
      expect(() => d.drafts.delete(mine.id)).toThrow(IpcFailure);
      d.signOut();
      expect(d.drafts.list().drafts).toEqual([]);
      expect(() => d.drafts.save({ direction: 'in', fields: { subject: 'x' } })).toThrow(IpcFailure);
      await start();
      await d.drafts.sync();
      expect((await serverDrafts(clerk)).some((m) => m.subject === 'The clerk’s private draft')).toBe(false);
      d.as({ api: clerk, id: clerkId });
      expect(d.drafts.list().drafts.map((x) => x.subject)).toEqual(['The clerk’s private draft']);
      await d.drafts.sync();
      expect(
        (await serverDrafts(clerk)).filter((m) => m.subject === 'The clerk’s private draft'),
      ).toHaveLength(1);
    } finally {
      d.close();
    }
  }, 120_000);

  it('a draft its open form claims is left to the form, which learns the server draft it already became', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'e-')), { api: clerk, id: clerkId });
    try {
      const open = d.drafts.save({ direction: 'in', fields: { subject: 'Claimed by its form' } });
      expect(await d.drafts.claim(open.id)).toEqual({ serverId: null, serverVersion: null });
      await d.drafts.sync();
      expect(await serverDrafts(clerk)).not.toContainEqual(
        expect.objectContaining({ subject: 'Claimed by its form' }),
      );
      // The form gave up (the server away): released, the next pass sends it.
      d.drafts.save({
        id: open.id,
        direction: 'in',
        fields: { subject: 'Claimed by its form' },
        release: true,
      });
      await d.drafts.sync();
      expect((await serverDrafts(clerk)).filter((m) => m.subject === 'Claimed by its form')).toHaveLength(1);

      // Sent by a pass before the form saved: the claim names that server draft.
      const sent = d.drafts.save({ direction: 'in', fields: { subject: 'Sent before the form saved' } });
      await d.drafts.sync();
      const made = (await serverDrafts(clerk)).filter((m) => m.subject === 'Sent before the form saved');
      expect(made).toHaveLength(1);
      expect((await d.drafts.claim(sent.id)).serverId).toBe(made[0]!.documentId);
    } finally {
      d.close();
    }
  }, 120_000);

  it('a session that ended is not a refusal: the drafts wait for the next sign-in and are sent then', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'g-')), { api: clerk, id: clerkId });
    try {
      const waiting = d.drafts.save({ direction: 'in', fields: { subject: 'Written as the session ended' } });
      d.vault.setToken('a-token-the-server-never-gave');
      const after = await d.drafts.sync();
      expect(after.counts).toEqual({ waiting: 1, conflicts: 0, failed: 0 });
      expect(d.drafts.get(waiting.id)).toMatchObject({ state: 'pending', error: null });
      d.as({ api: clerk, id: clerkId });
      expect((await d.drafts.sync()).counts).toEqual({ waiting: 0, conflicts: 0, failed: 0 });
      expect(
        (await serverDrafts(clerk)).filter((m) => m.subject === 'Written as the session ended'),
      ).toHaveLength(1);
    } finally {
      d.close();
    }
  }, 120_000);

  it('a refusal by the server is kept with its words; the draft can be fixed and sent', async () => {
    const d = desk(mkdtempSync(join(deskDir, 'd-')), { api: clerk, id: clerkId });
    try {
      // The clerk may not write memos: the server refuses, the draft stays with the reason.
      const memo = d.drafts.save({
        direction: 'memo',
        fields: { subject: 'A memo the clerk may not write' },
      });
      const after = await d.drafts.sync();
      expect(after.counts.failed).toBe(1);
      expect(d.drafts.get(memo.id).error).toBeTruthy();
      d.drafts.delete(memo.id);
      expect(d.drafts.list().drafts).toEqual([]);
    } finally {
      d.close();
    }
  }, 120_000);
});

describe('sealing', () => {
  it('records open only with their key and for their own draft; altered ones are refused', () => {
    const key = randomBytes(32);
    const sealed = seal(key, '{"subject":"سري"}', 'draft-1');
    expect(unseal(key, sealed, 'draft-1')).toBe('{"subject":"سري"}');
    expect(() => unseal(key, sealed, 'draft-2')).toThrow();
    expect(() => unseal(randomBytes(32), sealed, 'draft-1')).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => unseal(key, altered, 'draft-1')).toThrow();
  });

  it('files stream through sealing whole; an altered file errors before it ends', async () => {
    const dir = mkdtempSync(join(deskDir, 'f-'));
    const key = randomBytes(32);
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const path = join(dir, 'f.sealed');
    await sealFile(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), path, 'd/f');
    const read = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of await openSealedFile(key, path, 'd/f')) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await read()).equals(bytes)).toBe(true);
    const file = readFileSync(path);
    file[5000]! ^= 1;
    writeFileSync(path, file);
    await expect(read()).rejects.toThrow();
  });

  it('the desk key is made once, read back, and set aside (not overwritten) when it cannot be read', () => {
    const dir = mkdtempSync(join(deskDir, 'k-'));
    const path = join(dir, 'drafts.key');
    const key = loadDraftKey(path, fileProtector);
    expect(loadDraftKey(path, fileProtector).equals(key)).toBe(true);
    const other = loadDraftKey(path, { ...fileProtector, backend: 'another-keyring' });
    expect(other.equals(key)).toBe(false);
    expect(readdirSync(dir).some((n) => n.startsWith('drafts.key.unreadable-'))).toBe(true);
  });
});
