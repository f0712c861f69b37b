/**
 * The timeline's paper (issue 26), in both languages: a sticker or cover sheet printed says so, a reprint
 * says which copy it is, and a file cut from a scanned batch says which batch and pages it came from —
 * each range of pages kept whole (3–5 never turned into 5–3 in an Arabic sentence).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { TimelineEntry } from '../../src-shared/api/correspondence';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { DocumentTimeline } from '../../src-renderer/features/correspondence/documents/Timeline';

beforeAll(async () => {
  await initI18n('ar');
});
afterEach(cleanup);

const entry = (
  id: number,
  event: TimelineEntry['event'],
  details: Record<string, unknown>,
): TimelineEntry => ({
  id,
  documentId: 7,
  event,
  actor: { id: 1, nameAr: 'سعد', nameEn: 'Saad' },
  at: '2026-11-27T10:00:00Z',
  details,
});

const entries = [
  entry(1, 'stickerPrinted', { size: '70x35', copy: 1 }),
  entry(2, 'stickerPrinted', { size: '50x25', copy: 2 }),
  entry(3, 'coverSheetPrinted', { copy: 1 }),
  entry(4, 'attachmentAdded', {
    attachmentId: 9,
    fileName: 'دفعة 7 (3-5,8).pdf',
    size: 1000,
    batch: 'دفعة 7.pdf',
    pages: [3, 4, 5, 8],
  }),
  entry(5, 'attachmentAdded', {
    attachmentId: 10,
    fileName: 'b (2).pdf',
    size: 10,
    batch: 'b.pdf',
    pages: [2],
  }),
];

describe('the timeline of paper', () => {
  it('reads in Arabic', async () => {
    await i18n.changeLanguage('ar');
    render(<DocumentTimeline entries={entries} />);
    const printed = screen.getAllByTestId('timeline-stickerPrinted');
    expect(printed[0]!.textContent).toContain('طبع ملصق القيد');
    expect(printed[1]!.textContent).toContain('أعاد طباعة ملصق القيد (النسخة 2)');
    expect(screen.getByTestId('timeline-coverSheetPrinted').textContent).toContain('طبع صفحة الغلاف');
    const [batch, single] = screen.getAllByTestId('timeline-batch');
    expect(batch!.textContent).toBe('من دفعة المسح دفعة 7.pdf، الصفحات 3–5، 8');
    expect(single!.textContent).toBe('من دفعة المسح b.pdf، الصفحة 2');
    // Each range is one left-to-right island.
    expect([...batch!.querySelectorAll('bdi[dir="ltr"]')].map((b) => b.textContent)).toContain('3–5');
  });

  it('reads in English', async () => {
    await i18n.changeLanguage('en');
    render(<DocumentTimeline entries={entries} />);
    const printed = screen.getAllByTestId('timeline-stickerPrinted');
    expect(printed[0]!.textContent).toContain('Printed the registration sticker');
    expect(printed[1]!.textContent).toContain('Printed the registration sticker again (copy 2)');
    const [batch, single] = screen.getAllByTestId('timeline-batch');
    expect(batch!.textContent).toBe('From the scanned batch دفعة 7.pdf, pages 3–5, 8');
    expect(single!.textContent).toBe('From the scanned batch b.pdf, page 2');
  });
});
