/**
 * A desk that only writes local drafts, as fast as it can, for the kill test (tests/unit/local-drafts-kill
 * .test.ts): each draft gets a subject and a PDF, and the line `saved <id> <n>` is printed only once
 * both are kept. Usage: tsx draft-writer.ts <desk folder>
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ApiClient } from '../../../src-main/services/api-client';
import { LocalStore } from '../../../src-main/services/local-store';
import { MemoryVault } from '../../../src-main/services/session-vault';
import { LocalDrafts } from '../../../src-main/drafts/drafts';
import { fileProtector, loadDraftKey } from '../../../src-main/drafts/crypto';

const dir = process.argv[2]!;
const store = LocalStore.open(join(dir, 'client.sqlite'));
const api = new ApiClient({ baseUrl: () => 'http://127.0.0.1:9', vault: new MemoryVault(), store });
const drafts = new LocalDrafts({
  store,
  api,
  key: loadDraftKey(join(dir, 'drafts.key'), fileProtector),
  dir: join(dir, 'drafts'),
  owner: () => ({ userId: 7, server: 'http://archive.example' }),
});

const pdf = (n: number) =>
  Buffer.concat([Buffer.from(`%PDF-1.4\n% draft ${n}\n`), Buffer.alloc(64 * 1024, n % 251)]);

for (let n = 1; ; n++) {
  const saved = drafts.save({
    direction: 'in',
    fields: { subject: `مسودة رقم ${n}`, summary: 'x'.repeat(2000) },
  });
  const answer = await drafts.receiveFile(
    `/local-drafts/${saved.id}/files`,
    Readable.toWeb(Readable.from([pdf(n)])) as unknown as ReadableStream<Uint8Array>,
    `scan-${n}.pdf`,
  );
  if (answer.status !== 201) throw new Error(`file ${n}: ${answer.status}`);
  process.stdout.write(`saved ${saved.id} ${n}\n`);
}
