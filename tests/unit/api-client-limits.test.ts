/**
 * ApiClient's limits against a real HTTP server: the time limit is one of silence (a slow answer that
 * keeps moving arrives, a silent one is "unreachable"), a body that is not JSON comes back as its text,
 * and a download larger than the contract's limit is refused while it arrives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FILE_TRANSFER_MAX_BYTES, IPC_ERRORS } from '../../src-shared/ipc/contract';
import { IpcFailure } from '../../src-main/ipc/dispatch';
import { ApiClient } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';

let server: Server;
let api: ApiClient;
let store: LocalStore;

beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/silent':
        return; // never answers
      case '/trickle': {
        // Six pieces 300 ms apart: longer in all than the 1 s limit, never silent for that long.
        res.writeHead(200, { 'content-type': 'application/json' });
        let sent = 0;
        const timer = setInterval(() => {
          res.write(' ');
          if (++sent === 6) {
            clearInterval(timer);
            res.end('{"ok":true}');
          }
        }, 300);
        return;
      }
      case '/big': {
        // No Content-Length: the limit must hold while the bytes arrive.
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const chunk = Buffer.alloc(1024 * 1024);
        let left = Math.ceil(FILE_TRANSFER_MAX_BYTES / chunk.length) + 1;
        const write = (): void => {
          while (left > 0) {
            left -= 1;
            if (!res.write(chunk)) {
              res.once('drain', write);
              return;
            }
          }
          res.end();
        };
        return write();
      }
      default:
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('plain words');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store = LocalStore.open(':memory:');
  api = new ApiClient({ baseUrl: () => base, vault: new MemoryVault(), store, timeoutMs: 1000 });
});

afterAll(async () => {
  api.connection.close();
  store.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('takes a silent server for an unreachable one, and waits for a slow one that keeps answering', async () => {
  const failure = await api.request({ method: 'GET', path: '/silent' }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(IpcFailure);
  expect((failure as IpcFailure).code).toBe(IPC_ERRORS.serverUnreachable);
  expect(await api.request({ method: 'GET', path: '/trickle' })).toEqual({ status: 200, body: { ok: true } });
}, 15_000);

it('answers a body that is not JSON as its text', async () => {
  expect(await api.request({ method: 'GET', path: '/plain' })).toEqual({ status: 200, body: 'plain words' });
});

it('refuses a download larger than the contract allows', async () => {
  const failure = await api.download({ path: '/big' }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(IpcFailure);
  expect((failure as IpcFailure).code).toBe(IPC_ERRORS.invalidInput);
}, 15_000);
