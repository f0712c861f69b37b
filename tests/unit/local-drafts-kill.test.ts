/**
 * A desk killed with SIGKILL while it saves drafts (issue 14): the writer (a real child process) saves
 * drafts with a PDF each as fast as it can and says which it finished; it is killed at several moments.
 * Reopened, every draft it said it saved is there with its subject and its PDF whole (decrypted and
 * compared), nothing it never finished is half there, and no stray file is left in the drafts folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';
import { LocalDrafts } from '../../src-main/drafts/drafts';
import { fileProtector, loadDraftKey, openSealedFile } from '../../src-main/drafts/crypto';

/** The PDF the writer keeps with its n-th draft. */
const writerPdf = (n: number) =>
  Buffer.concat([Buffer.from(`%PDF-1.4\n% draft ${n}\n`), Buffer.alloc(64 * 1024, n % 251)]);

const dir = mkdtempSync(join(tmpdir(), 'sijill-drafts-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until it has reported `atLeast` more drafts, then kills it; answers what it reported. */
function writeAndKill(atLeast: number): Promise<Map<string, number>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve('tests/unit/support/draft-writer.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const saved = new Map<string, number>();
    let buffer = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const [, id, n] = line.split(' ');
        saved.set(id!, Number(n));
      }
      if (saved.size >= atLeast) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolvePromise(saved) : reject(new Error(`writer ended ${code}: ${errors}`)),
    );
  });
}

describe('a desk killed while saving drafts', () => {
  it('keeps every draft it finished, whole, and nothing half', async () => {
    const reported = new Map<string, number>();
    for (const atLeast of [3, 11, 27]) for (const [id, n] of await writeAndKill(atLeast)) reported.set(id, n);

    const store = LocalStore.open(join(dir, 'client.sqlite'));
    const api = new ApiClient({ baseUrl: () => 'http://127.0.0.1:9', vault: new MemoryVault(), store });
    const key = loadDraftKey(join(dir, 'drafts.key'), fileProtector);
    const drafts = new LocalDrafts({
      store,
      api,
      key,
      dir: join(dir, 'drafts'),
      owner: () => ({ userId: 7, server: 'http://archive.example' }),
    });
    try {
      const kept = new Map(drafts.list().drafts.map((d) => [d.id, d]));
      for (const [id, n] of reported) {
        const detail = drafts.get(id);
        expect(kept.has(id)).toBe(true);
        expect(detail.subject).toBe(`مسودة رقم ${n}`);
        expect(detail.fileList).toHaveLength(1);
        const file = store.drafts().files(id)[0]!;
        const chunks: Buffer[] = [];
        for await (const chunk of await openSealedFile(key, file.file, `${id}/${file.id}`))
          chunks.push(chunk as Buffer);
        // The very bytes the writer kept (draft-writer.ts makes them the same way).
        expect(Buffer.concat(chunks).equals(writerPdf(n))).toBe(true);
      }
      // A draft the writer had not finished when killed may be there without its file; never more than
      // one per kill, and every file on disk belongs to a row (stray and half-written ones were removed).
      expect(kept.size - reported.size).toBeLessThanOrEqual(3);
      const onDisk = readdirSync(join(dir, 'drafts'));
      const rows = [...kept.keys()].flatMap((id) =>
        store
          .drafts()
          .files(id)
          .map((f) => f.file.split('/').pop()),
      );
      expect(onDisk.sort()).toEqual(rows.sort());
    } finally {
      api.connection.close();
      store.close();
    }
  }, 180_000);
});
