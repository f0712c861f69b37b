/**
 * lib/call.ts: a declared endpoint's path params are filled and its query and body sent; its answer is
 * checked against the declaration — another shape fails with the catalogue's unexpected-error text and
 * toasts no success.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endpoint } from '../../src-shared/api/endpoint';

const holder = vi.hoisted(() => ({
  apiRequest: vi.fn(),
  toasts: [] as { severity: string; detail: string }[],
}));
vi.mock('../../src-renderer/lib/bridge', () => ({ getBridge: () => ({ apiRequest: holder.apiRequest }) }));
vi.mock('../../src-renderer/lib/toast', () => ({
  toast: (t: { severity: string; detail: string }) => holder.toasts.push(t),
}));

import { call } from '../../src-renderer/lib/call';
import { ApiError } from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';

const rename = endpoint({
  method: 'PUT',
  path: '/things/:id/names/:lang',
  params: z.object({ id: z.string(), lang: z.string() }),
  body: z.object({ name: z.string() }),
  response: z.object({ id: z.number().int(), name: z.string() }),
  access: 'authenticated',
  tags: ['things'],
  summary: 'Rename a thing',
});
const list = endpoint({
  method: 'GET',
  path: '/things',
  query: z.object({ q: z.string().optional() }),
  response: z.array(z.number()),
  access: 'authenticated',
  tags: ['things'],
  summary: 'Things',
});

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => {
  holder.apiRequest.mockReset();
  holder.toasts.length = 0;
});

describe('call', () => {
  it('fills the path params, sends the body and answers the checked data', async () => {
    holder.apiRequest.mockResolvedValue({
      ok: true,
      data: { status: 200, body: { data: { id: 7, name: 'x' }, returnMessage: 'Saved' } },
    });
    const answer = await call(rename, { params: { id: 7, lang: 'a/b' }, body: { name: 'x' } });
    expect(answer).toEqual({ id: 7, name: 'x' });
    expect(holder.apiRequest).toHaveBeenCalledWith({
      method: 'PUT',
      path: '/things/7/names/a%2Fb',
      body: { name: 'x' },
    });
    expect(holder.toasts).toEqual([{ severity: 'success', detail: 'Saved' }]);
  });

  it('sends the query of a GET without a body', async () => {
    holder.apiRequest.mockResolvedValue({ ok: true, data: { status: 200, body: { data: [1, 2] } } });
    expect(await call(list, { query: { q: 'a' } })).toEqual([1, 2]);
    expect(holder.apiRequest).toHaveBeenCalledWith({ method: 'GET', path: '/things', query: { q: 'a' } });
  });

  it('fails an answer of another shape with the unexpected-error text, toasting no success', async () => {
    holder.apiRequest.mockResolvedValue({
      ok: true,
      data: { status: 200, body: { data: { id: 'seven' }, returnMessage: 'Saved' } },
    });
    const failure = await call(rename, { params: { id: 7, lang: 'en' }, body: { name: 'x' } }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).problem.detail).toBe('Something went wrong. Please try again');
    expect(holder.toasts).toEqual([
      expect.objectContaining({ severity: 'error', detail: 'Something went wrong. Please try again' }),
    ]);
  });
});
