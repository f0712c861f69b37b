/**
 * The file channels (`api:upload`, `api:download`) against a real HTTP server on 127.0.0.1: the upload
 * arrives as multipart/form-data with the file's bytes, name and type plus the plain fields, and the
 * same headers as any API call; a download comes back base64 with its name (Arabic too) and type; error
 * statuses come back as answers; the contract refuses what is not base64, too large, or a path.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiUploadSchema, contract, FILE_TRANSFER_MAX_BYTES } from '../../src-shared/ipc/contract';
import { CHANNEL_NAMES } from '../../src-shared/ipc/names';
import { ApiClient, fileNameFromDisposition } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  form: FormData | null;
}

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');
let server: Server;
let baseUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const type = req.headers['content-type'] ?? '';
        // Node's own multipart parser (undici) reads back exactly what a server would.
        const form = type.startsWith('multipart/form-data')
          ? await new Response(raw, { headers: { 'content-type': type } }).formData()
          : null;
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, form });
        const path = (req.url ?? '').split('?')[0];
        if (path === '/ec/employees/5/attachments' && form) {
          const file = form.get('file') as File;
          res.writeHead(201, { 'Content-Type': 'application/json' });
          return res.end(
            JSON.stringify({
              data: { id: 9, fileName: file.name, size: file.size, mime: file.type },
              returnMessage: 'تم الرفع',
            }),
          );
        }
        if (path === '/too-large') {
          res.writeHead(413, { 'Content-Type': 'application/problem+json' });
          return res.end(
            JSON.stringify({ status: 413, title: 'Too large', detail: 'File size must be less' }),
          );
        }
        if (path === '/ec/employees/5/attachments/9/content') {
          res.writeHead(200, {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="report.pdf"; filename*=UTF-8''${encodeURIComponent('تقرير سنوي.pdf')}`,
          });
          return res.end(PDF);
        }
        res.writeHead(404, { 'Content-Type': 'application/problem+json' });
        res.end(JSON.stringify({ status: 404, title: 'Not found', detail: 'غير موجود' }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let store: LocalStore;
let api: ApiClient;

beforeEach(() => {
  received.length = 0;
  store = LocalStore.open(':memory:');
  const vault = new MemoryVault();
  api = new ApiClient({ baseUrl: () => baseUrl, vault, store, timeoutMs: 5000 });
  api.setToken('tok-upload');
});
afterEach(() => store.close());

describe('api:upload', () => {
  it('sends the file as multipart/form-data with its name, type, bytes and the plain fields', async () => {
    const input = apiUploadSchema.parse({
      path: '/ec/employees/5/attachments',
      field: 'file',
      fileName: 'عقد العمل.pdf',
      mime: 'application/pdf',
      base64: PDF.toString('base64'),
      fields: { description: 'نسخة موقعة' },
    });
    const answer = await api.upload(input);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ data: { id: 9, fileName: 'عقد العمل.pdf', size: PDF.byteLength } });

    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.authorization).toBe('Bearer tok-upload');
    expect(request?.headers['accept-language']).toBe('ar');
    const file = request!.form!.get('file') as File;
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    expect(request!.form!.get('description')).toBe('نسخة موقعة');
  });

  it('answers an error status (413) instead of throwing', async () => {
    const answer = await api.upload(
      apiUploadSchema.parse({
        method: 'PUT',
        path: '/too-large',
        field: 'photo',
        fileName: 'me.png',
        mime: 'image/png',
        base64: Buffer.from('x').toString('base64'),
      }),
    );
    expect(answer).toMatchObject({ status: 413, body: { detail: 'File size must be less' } });
    expect(received[0]?.method).toBe('PUT');
  });

  it('is refused by the contract for bad base64, a folder in the name, a URL or an oversized file', () => {
    const good = {
      path: '/x',
      field: 'file',
      fileName: 'a.pdf',
      mime: 'application/pdf',
      base64: 'JVBERi0=',
    };
    expect(apiUploadSchema.safeParse(good).success).toBe(true);
    expect(apiUploadSchema.safeParse({ ...good, base64: 'not base64!' }).success).toBe(false);
    expect(apiUploadSchema.safeParse({ ...good, fileName: '../../etc/passwd' }).success).toBe(false);
    expect(apiUploadSchema.safeParse({ ...good, path: 'http://evil.example/x' }).success).toBe(false);
    expect(apiUploadSchema.safeParse({ ...good, mime: 'pdf' }).success).toBe(false);
    expect(apiUploadSchema.safeParse({ ...good, extra: 1 }).success).toBe(false);
    const tooLarge = 'A'.repeat((Math.ceil(FILE_TRANSFER_MAX_BYTES / 3) + 1) * 4);
    expect(apiUploadSchema.safeParse({ ...good, base64: tooLarge }).success).toBe(false);
  });

  it('is declared in the contract and in the renderer’s name list', () => {
    expect(contract['api:upload']).toBeDefined();
    expect(contract['api:download']).toBeDefined();
    expect(CHANNEL_NAMES).toEqual(expect.arrayContaining(['api:upload', 'api:download']));
  });
});

describe('api:download', () => {
  it('answers the file base64-encoded with its (Arabic) name and type', async () => {
    const answer = await api.download({ path: '/ec/employees/5/attachments/9/content' });
    expect(answer.status).toBe(200);
    expect(answer.file).toMatchObject({
      fileName: 'تقرير سنوي.pdf',
      mime: 'application/pdf',
      size: PDF.length,
    });
    expect(Buffer.from(answer.file!.base64, 'base64').equals(PDF)).toBe(true);
    expect(received[0]?.headers.authorization).toBe('Bearer tok-upload');
  });

  it('answers a problem with its status and parsed body, and no file', async () => {
    const answer = await api.download({ path: '/ec/employees/5/attachments/404/content' });
    expect(answer).toEqual({ status: 404, body: { status: 404, title: 'Not found', detail: 'غير موجود' } });
  });

  it('reads file names from Content-Disposition and drops folders', () => {
    expect(fileNameFromDisposition('attachment; filename="a.pdf"')).toBe('a.pdf');
    expect(fileNameFromDisposition("inline; filename*=UTF-8''%D9%85%D9%84%D9%81.pdf")).toBe('ملف.pdf');
    expect(fileNameFromDisposition('attachment; filename="../../x.pdf"')).toBe('x.pdf');
    expect(fileNameFromDisposition('inline')).toBeNull();
  });
});
