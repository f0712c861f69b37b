/**
 * A multipart/form-data request body with one file, built on the fly around a stream of the file's
 * bytes: the head, the bytes as they arrive (never held whole), the tail. The file name travels as
 * `filename` (made safe) and as RFC 5987 `filename*` (UTF-8, so an Arabic name arrives intact).
 */
import { randomBytes } from 'node:crypto';

/**
 * The head of a `file` part: its name as `filename` (made safe) and as RFC 5987 `filename*` (UTF-8, so
 * an Arabic name arrives intact), and its type.
 */
export function filePartHead(boundary: string, fileName: string, contentType: string): Uint8Array {
  const safeName = fileName.replace(/["\r\n\\]/g, '_');
  return new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"; ` +
      `filename*=UTF-8''${encodeURIComponent(fileName)}\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
}

/** A multipart body with one file part around a stream of its bytes. */
export function multipartStream(
  body: ReadableStream<Uint8Array>,
  fileName: string,
  contentType: string,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----sijill${randomBytes(12).toString('hex')}`;
  const head = filePartHead(boundary, fileName, contentType);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const reader = body.getReader();
  let sentHead = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentHead) {
        sentHead = true;
        controller.enqueue(head);
        return;
      }
      if (done) return;
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        controller.enqueue(tail);
        controller.close();
      } else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { body: stream, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Fetch options for a streamed request body (Node's fetch sends one half-duplex only). */
export function streamingInit(
  method: string,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
): RequestInit {
  // `duplex` is not in the DOM typings.
  const init: RequestInit & { duplex: 'half' } = { method, headers, body, duplex: 'half', redirect: 'error' };
  return init;
}
