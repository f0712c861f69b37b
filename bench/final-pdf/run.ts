/**
 * The letter that leaves (issue 27): `npx tsx bench/final-pdf/run.ts` (or `npm run bench -- final-pdf`).
 * The API server runs in this process on PGlite with its background worker, an organisation's signing
 * certificate set (a CA chain of three, RSA-2048). For a 2-page and a 100-page letter (BENCH_RUNS each,
 * default 5), the minister approves it and the benchmark measures, from the approval's request until the
 * final PDF is recorded as made (its row read every 5 ms):
 * - approvalToSignedMs: median and max (targets: under 1 s for 2 pages, under 5 s for 100 pages), with
 *   the approval request's own time apart;
 * - peakRssMb / rssGrowthMb: the process's memory while the 100-page letter is stamped and signed
 *   (sampled every 10 ms), against what it held before.
 * The parts alone: bench/final-pdf/stamp.ts (stamping) and bench/final-pdf/sign.ts (signing).
 * Prints one JSON object; nothing fails on a figure.
 */
import { median } from '../harness';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caChain } from '../../tests/support/certificates';
import { finalWorld, letterPdf, submittedLetter } from '../../tests/api/support/final';
import { call, startHarness } from '../../tests/api/support/harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const round = (x: number) => Math.round(x);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-final-'));
const h = await startHarness({ JOBS_WORKER: '1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
try {
  const w = await finalWorld(h);
  const chain = caChain('Ministry of Finance Signer');
  const set = await call(h, {
    method: 'PUT',
    url: '/correspondence/letter-settings/certificate',
    token: w.admin.token,
    body: { pkcs12: Buffer.from(chain.p12).toString('base64'), password: chain.password },
  });
  if (set.status !== 200) throw new Error(`setting the certificate: ${JSON.stringify(set.json)}`);

  const stateOf = async (id: number) =>
    (
      await h.query<{ state: string; signed: boolean }>(
        `select state, signed from final_letters where document_id = ${id}`,
      )
    )[0];

  const results: Record<string, unknown> = {};
  for (const pages of [2, 100]) {
    const pdf = await letterPdf(pages);
    const total: number[] = [];
    const request: number[] = [];
    let peak = 0;
    let before = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      const letter = await submittedLetter(h, w, { pdf });
      global.gc?.();
      before = process.memoryUsage().rss;
      peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const started = performance.now();
      await letter.approve();
      const approved = performance.now();
      for (;;) {
        const row = await stateOf(letter.id);
        if (row && row.state !== 'pending') {
          if (row.state !== 'done' || !row.signed)
            throw new Error(`final PDF ${row.state}, signed ${row.signed}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      const done = performance.now();
      clearInterval(sampler);
      // The first run warms the fonts, pdf-lib and forge up: not counted.
      if (run === 0) continue;
      total.push(done - started);
      request.push(approved - started);
    }
    results[`${pages}Pages`] = {
      approvalToSignedMs: { median: round(median(total)), max: round(Math.max(...total)) },
      approvalRequestMs: { median: round(median(request)) },
      ...(pages === 100 ? { peakRssMb: mb(peak), rssGrowthMb: mb(peak - before) } : {}),
      targetMs: pages === 2 ? 1000 : 5000,
    };
  }
  console.log(JSON.stringify({ runs: RUNS, ...results }, null, 2));
} finally {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
}
