/**
 * Large file benchmark (issue 13): `npx tsx bench/files/run.ts`. A valid 200 MB PDF (BENCH_FILE_MB; one
 * page showing a grey-scale image of random pixels, written to disk a megabyte at a time, never held in
 * memory) goes up to the real server and comes back down:
 *
 * - the server is a child process (`src-server/cli.ts serve`, PGlite in a temporary folder,
 *   UPLOAD_MAX_BYTES 300 MB), its first administrator made through POST /setup;
 * - an incoming draft (POST /correspondence/documents), then the file streamed from disk as multipart to
 *   POST /correspondence/documents/{id}/attachments with the code the desktop's main process uses
 *   (services/multipart.ts `multipartStream` + `streamingInit`, fetch, as the station's transport does);
 * - then GET …/attachments/{attachmentId}/content streamed to a file, hashed on the way, its sha256 and
 *   size checked against the original.
 *
 * Measured: upload and download time and MB/s (the upload also split at its last byte sent: the rest is
 * the server's check and storing), and resident memory sampled every 50 ms (and VmHWM, the kernel's
 * peak) of the server process and of this process, which plays the desktop's main. The point: memory
 * stays flat (tens of MB above idle, not hundreds) while 200 MB move. Printed as a table and written to
 * bench/files/results.json; nothing fails on a figure.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { multipartStream, streamingInit } from '../../src-main/services/multipart';
import {
  MB,
  MemorySampler,
  firstAdmin,
  must,
  procCpuSeconds,
  procMemory,
  round,
  sleep,
  startServerProcess,
  table,
  writePdf,
  writeResults,
} from '../station/support';

const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 200);
const UPLOAD_MAX_BYTES = 300 * MB;
/** A flat memory: the peak while moving the file, above the idle process, under this many MB. */
const FLAT_MB = 100;

async function main() {
  const root = await mkdtemp(join(tmpdir(), 'sijill-bench-files-'));
  try {
    process.stderr.write(`writing a ${FILE_MB} MB PDF…\n`);
    const source = join(root, 'scan-200mb.pdf');
    const generatedAt = performance.now();
    const pdf = await writePdf(source, FILE_MB * MB, `Sijill bench: one ${FILE_MB} MB scan`);
    const generateSeconds = (performance.now() - generatedAt) / 1000;
    const mainAfterGenerate = procMemory('self');

    process.stderr.write('starting the server…\n');
    const server = await startServerProcess(join(root, 'server'), {
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
    });
    try {
      const token = await firstAdmin(server.url);
      const auth = { Accept: 'application/json', Authorization: `Bearer ${token}` };
      const draft = await must<{ id: number }>(201, server.url, 'POST', '/correspondence/documents', {
        token,
        body: { direction: 'in', subject: `ملف ممسوح ضوئيًا من ${FILE_MB} ميغابايت` },
      });
      await sleep(1000); // let the server settle after sign-in (argon2) before its idle figure
      const memory = new MemorySampler({ server: server.pid, main: 'self' }, 50);
      const idle = { server: procMemory(server.pid), main: procMemory('self') };
      const cpu = () => ({ server: procCpuSeconds(server.pid), main: procCpuSeconds('self') });
      const spent = (a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>) => ({
        server: a.server === null || b.server === null ? null : round(b.server - a.server, 1),
        main: a.main === null || b.main === null ? null : round(b.main - a.main, 1),
      });

      // ---- upload: the file streamed from disk as multipart (the desktop's main does the same)
      process.stderr.write('uploading…\n');
      memory.phase('upload');
      const cpuBeforeUpload = cpu();
      let sent = 0;
      let lastByteAt = 0;
      const counting = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
        flush() {
          lastByteAt = performance.now();
          // The file has been read and handed to fetch: what follows is the server's check and storing.
          memory.phase('check');
        },
      });
      const bytes = (
        Readable.toWeb(createReadStream(source, { highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>
      ).pipeThrough(counting);
      const multipart = multipartStream(bytes, 'scan-200mb.pdf', 'application/pdf');
      const uploadStarted = performance.now();
      const uploaded = await fetch(
        `${server.url}/correspondence/documents/${draft.id}/attachments`,
        streamingInit('POST', { ...auth, 'Content-Type': multipart.contentType }, multipart.body),
      );
      const uploadAnswer = await uploaded.text();
      const uploadEnded = performance.now();
      const cpuAfterUpload = cpu();
      if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploadAnswer}`);
      const attachment = (JSON.parse(uploadAnswer) as { data: { id: number; size: number; sha256: string } })
        .data;
      memory.phase('between');
      await sleep(1000);
      const settled = { server: procMemory(server.pid), main: procMemory('self') };

      // ---- download: streamed to a file, hashed on the way
      process.stderr.write('downloading…\n');
      memory.phase('download');
      const cpuBeforeDownload = cpu();
      const target = join(root, 'downloaded.pdf');
      const downloadStarted = performance.now();
      const response = await fetch(
        `${server.url}/correspondence/documents/${draft.id}/attachments/${attachment.id}/content`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const firstByteMs = performance.now() - downloadStarted;
      if (response.status !== 200 || !response.body) throw new Error(`download: ${response.status}`);
      const hash = createHash('sha256');
      let received = 0;
      await pipeline(
        Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            received += chunk.length;
            done(null, chunk);
          },
        }),
        createWriteStream(target),
      );
      const downloadEnded = performance.now();
      const cpuAfterDownload = cpu();
      memory.stop();
      const downloadedSha = hash.digest('hex');
      const final = { server: procMemory(server.pid), main: procMemory('self') };

      const uploadSeconds = (uploadEnded - uploadStarted) / 1000;
      const transferSeconds = ((lastByteAt || uploadEnded) - uploadStarted) / 1000;
      const downloadSeconds = (downloadEnded - downloadStarted) / 1000;
      const sizeMB = pdf.size / MB;
      const peak = (phase: string, name: string) => memory.peak(phase, name);
      /** A phase's peak above the RSS the phase started from (idle for the upload, settled for the download). */
      const above = (phase: string, name: 'server' | 'main') => {
        const p = peak(phase, name);
        const base = (phase === 'download' ? settled : idle)[name]?.rssMB;
        return p === null || base === undefined ? null : round(p - base, 1);
      };
      const result = {
        benchmark: 'files',
        at: new Date().toISOString(),
        settings: {
          fileMB: round(sizeMB, 2),
          fileBytes: pdf.size,
          uploadMaxBytes: UPLOAD_MAX_BYTES,
          server: 'child process: src-server/cli.ts serve, PGlite, LOG_LEVEL warn',
          client:
            'this process (as main): multipartStream + streamingInit + fetch, file read in 256 KB chunks',
          cpus: cpus().length,
          node: process.version,
          memorySampledEveryMs: 50,
          memorySamples: memory.samples,
          generateSeconds: round(generateSeconds, 2),
        },
        upload: {
          status: uploaded.status,
          seconds: round(uploadSeconds, 2),
          mbPerSec: round(sizeMB / uploadSeconds, 1),
          bytesSent: sent,
          lastByteSentSeconds: round(transferSeconds, 2),
          serverAfterLastByteSeconds: round(uploadSeconds - transferSeconds, 2),
          storedSize: attachment.size,
          storedShaMatches: attachment.sha256 === pdf.sha256,
          cpuSeconds: spent(cpuBeforeUpload, cpuAfterUpload),
        },
        download: {
          status: response.status,
          seconds: round(downloadSeconds, 2),
          mbPerSec: round(sizeMB / downloadSeconds, 1),
          firstByteMs: round(firstByteMs, 1),
          bytes: received,
          sha256Matches: downloadedSha === pdf.sha256 && received === pdf.size,
          cpuSeconds: spent(cpuBeforeDownload, cpuAfterDownload),
        },
        memoryMB: {
          server: {
            idle: idle.server?.rssMB ?? null,
            peakReceiving: peak('upload', 'server'),
            peakCheckAfterLastByte: peak('check', 'server'),
            peakDownload: peak('download', 'server'),
            aboveIdleReceiving: above('upload', 'server'),
            aboveIdleCheck: above('check', 'server'),
            beforeDownload: settled.server?.rssMB ?? null,
            aboveBeforeDownload: above('download', 'server'),
            end: final.server?.rssMB ?? null,
            vmHWM: final.server?.hwmMB ?? null,
          },
          main: {
            afterGeneratingThePdf: mainAfterGenerate?.rssMB ?? null,
            idle: idle.main?.rssMB ?? null,
            peakUpload: Math.max(peak('upload', 'main') ?? 0, peak('check', 'main') ?? 0),
            peakDownload: peak('download', 'main'),
            aboveIdleUpload: Math.max(above('upload', 'main') ?? 0, above('check', 'main') ?? 0),
            beforeDownload: settled.main?.rssMB ?? null,
            aboveBeforeDownload: above('download', 'main'),
            end: final.main?.rssMB ?? null,
            vmHWM: final.main?.hwmMB ?? null,
          },
        },
        flatTargetMB: FLAT_MB,
        memoryTimeline: memory.thinned(80),
      };
      const isFlat = (v: number | null) => v !== null && v < FLAT_MB;
      const m = result.memoryMB;
      const flat = {
        serverReceiving: isFlat(m.server.aboveIdleReceiving),
        serverCheck: isFlat(m.server.aboveIdleCheck),
        serverDownload: isFlat(m.server.aboveBeforeDownload),
        mainUpload: isFlat(m.main.aboveIdleUpload),
        mainDownload: isFlat(m.main.aboveBeforeDownload),
      };
      const output = { ...result, met: { flat, verified: result.download.sha256Matches } };
      await writeResults(join(import.meta.dirname, 'results.json'), output);

      console.log(
        `\nFiles benchmark: one PDF of ${round(sizeMB, 1)} MB (${pdf.size} bytes) up and down through the server ` +
          `(child process, PGlite), ${result.settings.cpus} CPUs\n`,
      );
      console.log(
        table([
          ['transfer', 'seconds', 'MB/s', 'detail'],
          [
            'upload (multipart, streamed from disk)',
            result.upload.seconds,
            result.upload.mbPerSec,
            `last byte sent at ${result.upload.lastByteSentSeconds} s; server check + store after it: ` +
              `${result.upload.serverAfterLastByteSeconds} s; status ${uploaded.status}`,
          ],
          [
            'download (streamed to a file)',
            result.download.seconds,
            result.download.mbPerSec,
            `first byte ${result.download.firstByteMs} ms; sha256 and size ` +
              `${result.download.sha256Matches ? 'match' : 'DIFFER'}`,
          ],
        ]),
      );
      console.log('');
      const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
      console.log(
        table([
          ['resident memory (MB)', 'before', 'peak', 'growth', `flat (< +${FLAT_MB})`],
          [
            'server: receiving the upload',
            m.server.idle,
            m.server.peakReceiving,
            m.server.aboveIdleReceiving,
            yes(flat.serverReceiving),
          ],
          [
            'server: check + store after the last byte',
            m.server.idle,
            m.server.peakCheckAfterLastByte,
            m.server.aboveIdleCheck,
            yes(flat.serverCheck),
          ],
          [
            'server: download',
            m.server.beforeDownload,
            m.server.peakDownload,
            m.server.aboveBeforeDownload,
            yes(flat.serverDownload),
          ],
          ['server: VmHWM (whole life, startup included)', '', m.server.vmHWM, '', ''],
          [
            'this process (as main): upload',
            m.main.idle,
            m.main.peakUpload,
            m.main.aboveIdleUpload,
            yes(flat.mainUpload),
          ],
          [
            'this process (as main): download',
            m.main.beforeDownload,
            m.main.peakDownload,
            m.main.aboveBeforeDownload,
            yes(flat.mainDownload),
          ],
          ['this process: VmHWM (PDF writing included)', '', m.main.vmHWM, '', ''],
        ]),
      );
      console.log('');
      console.log(
        table([
          ['other figures', 'value'],
          [
            'CPU s upload: server / main',
            `${result.upload.cpuSeconds.server} / ${result.upload.cpuSeconds.main}`,
          ],
          [
            'CPU s download: server / main',
            `${result.download.cpuSeconds.server} / ${result.download.cpuSeconds.main}`,
          ],
          ['RSS at the end: server / main (MB)', `${m.server.end} / ${m.main.end}`],
          ['main RSS after writing the PDF (MB)', m.main.afterGeneratingThePdf],
          [
            'stored size / sha256 as sent',
            `${attachment.size} / ${attachment.sha256 === pdf.sha256 ? 'same' : 'DIFFERENT'}`,
          ],
          ['writing the PDF to disk took (s)', result.settings.generateSeconds],
          ['memory samples', memory.samples],
        ]),
      );
      console.log('\nresults: bench/files/results.json');
    } catch (error) {
      process.stderr.write(`server output:\n${server.output()}\n`);
      throw error;
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
