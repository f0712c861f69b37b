/**
 * The web shell's guards, against the real shell (real embedded server, real WebSocket): only its own
 * origin with the per-launch secret may use the bridge, requests by another host name are refused, the
 * renderer is served with a strict CSP, and a bad argument is refused before any handler runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import WebSocket from 'ws';
import { startWebShell, type WebShell } from '../../src-main/web/shell';
import { minimalPdf } from '../api/support/files';

let shell: WebShell;
let dir: string;
let origin: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sijill-shell-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  shell = await startWebShell({ dataDir: join(dir, 'data'), rendererDir });
  const url = new URL(shell.url);
  origin = url.origin;
  key = url.searchParams.get('key')!;
}, 120_000);

afterAll(async () => {
  await shell?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the bridge socket with the given key and Origin; resolves with the socket or the close code. */
function connect(withKey: string, withOrigin: string): Promise<{ socket?: WebSocket; closeCode?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(
      `${origin.replace('http', 'ws')}/bridge?key=${encodeURIComponent(withKey)}`,
      {
        headers: { Origin: withOrigin },
      },
    );
    let opened = false;
    socket.on('open', () => {
      opened = true;
      // A refused socket is closed by the shell right after the upgrade: wait a moment to tell.
      setTimeout(() => resolve(socket.readyState === WebSocket.OPEN ? { socket } : { closeCode: 1008 }), 150);
    });
    socket.on('close', (code) => resolve({ closeCode: code }));
    socket.on('error', () => !opened && resolve({ closeCode: -1 }));
  });
}

function call(
  socket: WebSocket,
  channel: string,
  input?: unknown,
): Promise<{ ok: boolean; data?: unknown; error?: { code: string } }> {
  return new Promise((resolve) => {
    const id = Math.floor(Math.random() * 1e9);
    const onMessage = (raw: WebSocket.RawData) => {
      const frame = JSON.parse(String(raw));
      if (frame.id === id) {
        socket.off('message', onMessage);
        resolve(frame.result);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, input }));
  });
}

function get(path: string, host: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { Host: host } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('web shell', () => {
  it('serves the renderer with a strict CSP to its own host only', async () => {
    const own = await get('/', new URL(origin).host);
    expect(own.status).toBe(200);
    const csp = String(own.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    const rebound = await get('/', 'evil.example:80');
    expect(rebound.status).toBe(421);
  });

  it('refuses a wrong secret and a foreign origin', async () => {
    expect((await connect('not-the-key', origin)).closeCode).toBe(1008);
    expect((await connect(key, 'http://evil.example')).closeCode).toBe(1008);
  });

  it('answers contract channels and refuses bad arguments and unknown channels', async () => {
    const { socket } = await connect(key, origin);
    expect(socket).toBeDefined();
    const info = await call(socket!, 'app:info');
    expect(info).toMatchObject({
      ok: true,
      data: { host: 'web', mode: 'standalone', apiBaseUrl: shell.apiBaseUrl },
    });

    const escape = await call(socket!, 'api:request', { method: 'GET', path: 'http://evil.example/x' });
    expect(escape).toMatchObject({ ok: false, error: { code: 'ipc.invalidInput' } });
    const dots = await call(socket!, 'api:request', { method: 'GET', path: '/auth/../../etc/passwd' });
    expect(dots).toMatchObject({ ok: false, error: { code: 'ipc.invalidInput' } });
    const locale = await call(socket!, 'settings:set', { selectedLocale: 'fr' });
    expect(locale).toMatchObject({ ok: false, error: { code: 'ipc.invalidInput' } });
    const unchanged = await call(socket!, 'settings:get');
    expect(unchanged).toMatchObject({ ok: true, data: { selectedLocale: 'ar' } });
    expect(await call(socket!, 'fs:read', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.unknownChannel' },
    });

    const health = await call(socket!, 'api:request', { method: 'GET', path: '/health' });
    expect(health).toMatchObject({ ok: true, data: { status: 200, body: { data: { status: 'ok' } } } });
    socket!.close();
  });

  it('carries a 20 MB attachment across the bridge to the API', async () => {
    const { socket } = await connect(key, origin);
    const bytes = Buffer.alloc(20 * 1024 * 1024, 0x20);
    bytes.write('%PDF-1.4\n', 0);
    const answer = await call(socket!, 'api:upload', {
      path: '/correspondence/documents/1/attachments',
      field: 'file',
      fileName: 'large.pdf',
      mime: 'application/pdf',
      base64: bytes.toString('base64'),
    });
    // Not signed in: the server itself answered, so the whole frame crossed the socket.
    expect(answer).toMatchObject({ ok: true, data: { status: 401 } });
    expect(socket!.readyState).toBe(WebSocket.OPEN);
    socket!.close();
  }, 60_000);

  it('streams our files through /files both ways with the launch secret, a byte range at a time, and nothing else', async () => {
    const files = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${origin}${path}`, { headers });
    const attachment = '/files/correspondence/documents/1/attachments/1/content';
    expect((await files(attachment)).status).toBe(403);
    expect((await files(attachment, { 'x-sijill-key': 'not-the-key' })).status).toBe(403);
    // Only attachment paths: the rest of the API is not a file.
    expect((await files('/files/auth/profile', { 'x-sijill-key': key })).status).toBe(404);
    expect((await files('/files/correspondence/documents/1', { 'x-sijill-key': key })).status).toBe(404);
    expect((await files('/files/correspondence/documents/1/final', { 'x-sijill-key': key })).status).toBe(
      404,
    );
    // A letter's final PDF is a file (issue 27): the server's own answer (not signed in) comes back.
    expect(
      (await files('/files/correspondence/documents/1/final/file', { 'x-sijill-key': key })).status,
    ).toBe(401);
    // Not signed in: the server's own answer comes back.
    expect((await files(attachment, { 'x-sijill-key': key })).status).toBe(401);

    // Signed in through the bridge (main keeps the token), a real attachment reads in ranges.
    const { socket } = await connect(key, origin);
    const setup = await call(socket!, 'setup:create', {
      username: 'admin',
      email: 'admin@example.com',
      password: 'Admin#2025',
    });
    expect(setup).toMatchObject({ ok: true });
    // The first sign-in offers two-factor enrolment: skip it, as a person may.
    if ((setup as { data: { result: string } }).data.result === 'twoFactor')
      expect(await call(socket!, 'session:two-factor-skip')).toMatchObject({
        ok: true,
        data: { result: 'signedIn' },
      });
    const created = (await call(socket!, 'api:request', {
      method: 'POST',
      path: '/correspondence/documents',
      body: { direction: 'in', subject: 'ملف للعرض' },
    })) as { ok: boolean; data: { status: number; body: { data: { id: number } } } };
    expect(created.data.status).toBe(201);
    const id = created.data.body.data.id;
    const pdf = minimalPdf('file source');
    const uploaded = (await call(socket!, 'api:upload', {
      path: `/correspondence/documents/${id}/attachments`,
      field: 'file',
      fileName: 'letter.pdf',
      mime: 'application/pdf',
      base64: pdf.toString('base64'),
    })) as { ok: boolean; data: { status: number; body: { data: { id: number } } } };
    expect(uploaded.data.status).toBe(201);
    const path = `/files/correspondence/documents/${id}/attachments/${uploaded.data.body.data.id}/content`;
    const whole = await files(path, { 'x-sijill-key': key });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);
    const part = await files(path, { 'x-sijill-key': key, range: 'bytes=0-7' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-7/${pdf.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('%PDF-1.4');
    // The token never reaches the page: no header of the answer carries it.
    expect([...part.headers.keys()]).not.toContain('authorization');

    // A file sent through the file source streams into the API's multipart upload (no base64, no bridge).
    const send = (to: string, headers: Record<string, string>) =>
      fetch(`${origin}${to}`, { method: 'POST', headers, body: pdf });
    const target = `/files/correspondence/documents/${id}/attachments`;
    expect((await send(target, { 'content-type': 'application/pdf' })).status).toBe(403);
    expect(
      (await send('/files/auth/users', { 'x-sijill-key': key, 'content-type': 'application/pdf' })).status,
    ).toBe(404);
    const sent = await send(target, {
      'x-sijill-key': key,
      'content-type': 'application/pdf',
      'x-sijill-file-name': encodeURIComponent('خطاب الوزارة.pdf'),
    });
    expect(sent.status).toBe(201);
    const saved = (await sent.json()) as { data: { id: number; fileName: string; size: number } };
    expect(saved.data).toMatchObject({ fileName: 'خطاب الوزارة.pdf', size: pdf.length });
    // Refused by content as the API refuses any upload: not a PDF is 415, whatever its name.
    const notPdf = await fetch(`${origin}${target}`, {
      method: 'POST',
      headers: { 'x-sijill-key': key, 'content-type': 'application/pdf', 'x-sijill-file-name': 'x.pdf' },
      body: 'plain text, not a PDF',
    });
    expect(notPdf.status).toBe(415);
    socket!.close();
  }, 60_000);
});
