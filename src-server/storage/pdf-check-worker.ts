/**
 * A worker thread that checks uploaded PDFs (pdf-check.ts) for the server's thread (pdf-check-pool.ts):
 * pdf.js and the active-content scan run here, beside the thread that answers requests and, on the
 * embedded database, runs the database. Bytes sent in are given to pdf.js as a copy and sent back with
 * the verdict (the server stores them); a file on disk is read here by its path.
 */
import { parentPort } from 'node:worker_threads';
import { loadPdfJsWithoutDrawing } from '../pdfjs';
import { checkPdf, warmPdfJs, type PdfVerdict } from './pdf-check';

/** A check asked of this worker. */
export interface PdfCheckRequest {
  id: number;
  bytes?: Uint8Array;
  path?: string;
}

/** Its answer: the verdict (and the bytes, handed back), or why the check itself failed. */
export type PdfCheckReply =
  { id: number; verdict: PdfVerdict; bytes?: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('pdf-check-worker runs as a worker thread');

port.on('message', (request: PdfCheckRequest) => {
  void (async () => {
    try {
      if (request.bytes) {
        // pdf.js takes over what it is given: it gets a copy, the bytes go back to be stored.
        const verdict = await checkPdf({ bytes: new Uint8Array(request.bytes) });
        const reply: PdfCheckReply = { id: request.id, verdict, bytes: request.bytes };
        port.postMessage(reply, [request.bytes.buffer as ArrayBuffer]);
      } else if (request.path) {
        const reply: PdfCheckReply = { id: request.id, verdict: await checkPdf({ path: request.path }) };
        port.postMessage(reply);
      } else throw new Error('a check needs bytes or a path');
    } catch (error) {
      const reply: PdfCheckReply = { id: request.id, error: String((error as Error)?.message ?? error) };
      port.postMessage(reply);
    }
  })();
});

// pdf.js is loaded at once, without its drawing package (a check never draws: about 45 MB, see
// loadPdfJsWithoutDrawing), then the pool is told this worker is there (it sends no bytes before).
void loadPdfJsWithoutDrawing()
  .then(warmPdfJs)
  .then(
    () => port.postMessage({ ready: true }),
    () => process.exit(1), // no pdf.js here: the pool checks in its own thread instead
  );
