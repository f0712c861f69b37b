/**
 * The document's "Who read it" panel (issue 31): each act as "who — what" over "when · from where", the
 * attachment's name and the watermark tag where they apply, asked of GET /correspondence/documents/:id/reads;
 * in English (LTR) and Arabic (RTL).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { ReadEntry } from '../../src-shared/api/reads';
import { ReadsPanel } from '../../src-renderer/features/correspondence/documents/ReadsPanel';
import { initI18n } from '../../src-renderer/lib/i18n';
import { fakeHttp, renderScreen } from './admin-harness';

const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', () => ({
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));

const entry = (id: number, over: Partial<ReadEntry>): ReadEntry => ({
  id,
  at: '2026-11-28T08:22:00.000Z',
  action: 'documents.opened',
  userId: 1,
  username: 'sara.hr',
  documentId: 7,
  document: null,
  attachmentId: null,
  fileName: null,
  watermarked: false,
  ip: '10.0.0.5',
  ...over,
});

let items: ReadEntry[];
beforeEach(() => {
  items = [
    entry(2, {
      action: 'documents.attachmentDownloaded',
      attachmentId: 3,
      fileName: 'letter.pdf',
      watermarked: true,
    }),
    entry(1, {}),
  ];
  holder.fake = fakeHttp({
    'GET /correspondence/documents/7/reads': () => ({ items, total: items.length, page: 1, pageSize: 50 }),
  }) as never;
});
afterEach(cleanup);

describe.each([
  {
    lng: 'en' as const,
    opened: 'Opened the document',
    downloaded: 'Downloaded',
    mark: 'watermarked',
    empty: 'Nobody has read it yet',
  },
  {
    lng: 'ar' as const,
    opened: null,
    downloaded: null,
    mark: 'بعلامة مائية',
    empty: 'لم يطّلع عليها أحد بعد',
  },
])('ReadsPanel in $lng', ({ lng, opened, downloaded, mark, empty }) => {
  beforeEach(async () => {
    await initI18n(lng);
  });

  it('lists each act with who, what, the file, the watermark, when and from where', async () => {
    renderScreen(<ReadsPanel documentId={7} />);
    const rows = await screen.findAllByTestId('read-entry');
    expect(rows).toHaveLength(2);
    const [download, open] = rows.map((r) => r.textContent ?? '');
    expect(download).toContain('sara.hr');
    expect(download).toContain('letter.pdf');
    expect(download).toContain(mark);
    expect(download).toContain('10.0.0.5');
    expect(open).not.toContain(mark);
    if (opened) expect(open).toContain(opened);
    if (downloaded) expect(download).toContain(downloaded);
    // No key shows through untranslated.
    for (const text of [download, open]) expect(text).not.toMatch(/reads\.|actions\./);
  });

  it('says so when nobody read it', async () => {
    items = [];
    renderScreen(<ReadsPanel documentId={7} />);
    expect(await screen.findByText(empty)).toBeTruthy();
  });
});
