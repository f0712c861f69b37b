/**
 * The correspondence screens' small rules: the Hijri date beside the Gregorian one (Intl's Umm al-Qura
 * calendar), the lists' default date range (the last 30 days), and the attachment check by content
 * and size before upload.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { initI18n } from '../../src-renderer/lib/i18n';
import { formatHijri, hijriSpan } from '../../src-renderer/features/calendar/hijri';
import { viewRange } from '../../src-renderer/features/calendar/CalendarPage';
import {
  DATE_RANGE_DAYS,
  dateRangeQuery,
  defaultDateRange,
} from '../../src-renderer/features/correspondence/documents/dateRange';
import { DEFAULT_UPLOAD_MAX_BYTES as ATTACHMENT_MAX_BYTES } from '../../src-renderer/lib/upload-limit';
import { pdfFileProblem } from '../../src-renderer/components/upload/transfer';
import { DEFAULT_DATE_RANGE_DAYS } from '../../src-shared/api/correspondence';

beforeAll(async () => {
  await initI18n('en');
});

describe('Hijri dates', () => {
  it('formats 1 March 2025 as 1 Ramadan 1446 in Arabic, in the digits the user chose', () => {
    const date = new Date(2025, 2, 1, 12);
    localStorage.removeItem('sijill.digits');
    expect(formatHijri(date, 'full')).toBe('1 رمضان 1446 هـ');
    expect(formatHijri(date, 'day')).toBe('1');
    expect(formatHijri(date, 'monthYear')).toBe('رمضان 1446 هـ');
    localStorage.setItem('sijill.digits', 'arab');
    expect(formatHijri(date, 'full')).toBe('١ رمضان ١٤٤٦ هـ');
    localStorage.removeItem('sijill.digits');
  });

  it('names both Hijri months a Gregorian month straddles', () => {
    expect(hijriSpan(new Date(2025, 2, 1, 12), new Date(2025, 2, 31, 12))).toBe(
      'رمضان 1446 هـ – شوال 1446 هـ',
    );
    expect(hijriSpan(new Date(2025, 2, 2, 12), new Date(2025, 2, 3, 12))).toBe('رمضان 1446 هـ');
  });
});

describe('calendar views', () => {
  it('a month view spans whole weeks; a day view one day', () => {
    const anchor = dayjs('2025-03-15').locale('en');
    const month = viewRange('month', anchor);
    expect(month.from.format('YYYY-MM-DD')).toBe('2025-02-23');
    expect(month.to.format('YYYY-MM-DD')).toBe('2025-04-05');
    const day = viewRange('day', anchor);
    expect(day.from.format('YYYY-MM-DD')).toBe('2025-03-15');
    expect(day.to.format('YYYY-MM-DD')).toBe('2025-03-15');
  });
});

describe('the date range', () => {
  it('defaults to the 30 days before now, as the server does', () => {
    expect(DATE_RANGE_DAYS).toBe(DEFAULT_DATE_RANGE_DAYS);
    const now = dayjs('2025-05-31T15:20:00');
    const range = defaultDateRange(now);
    expect(range.toDate.isSame(now)).toBe(true);
    // The user's own days, as instants: from the start of the first to the end of the last.
    expect(dateRangeQuery(range)).toEqual({
      fromDate: dayjs('2025-05-01T00:00:00').toISOString(),
      toDate: dayjs('2025-05-31T23:59:59.999').toISOString(),
    });
    expect(dateRangeQuery(null)).toEqual({});
  });
});

describe('the attachment check', () => {
  const pdf = new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

  it('accepts a PDF by its bytes whatever its name', async () => {
    expect(
      await pdfFileProblem(new File([pdf], 'scan.txt', { type: 'text/plain' }), ATTACHMENT_MAX_BYTES),
    ).toBeNull();
  });

  it('refuses a file that is not a PDF, even named .pdf, naming it', async () => {
    const fake = new File([new TextEncoder().encode('<html>not a pdf</html>')], 'letter.pdf', {
      type: 'application/pdf',
    });
    expect(await pdfFileProblem(fake, ATTACHMENT_MAX_BYTES, 'en')).toBe(
      '“letter.pdf”: Please select a valid PDF file',
    );
  });

  it('refuses a file at or above the limit, naming the file and the limit', async () => {
    expect(await pdfFileProblem(new File([pdf], 'a.pdf'), 10, 'en')).toBe(
      '“a.pdf”: File size must be less than 10 B',
    );
    expect(await pdfFileProblem(new File([pdf], 'a.pdf'), 2 * 1024 * 1024, 'en')).toBeNull();
  });
});
