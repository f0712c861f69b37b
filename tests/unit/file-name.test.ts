/**
 * The display name kept for an uploaded file: last path segment, no control, bidi or invisible format
 * characters, no lone surrogate — but every real character (Arabic, emoji) kept.
 */
import { describe, expect, it } from 'vitest';
import { cleanFileName } from '../../src-server/http/upload';

describe('cleanFileName', () => {
  it('keeps what a person wrote and drops what hides', () => {
    expect(cleanFileName('خطاب الوزارة.pdf', 'x.pdf')).toBe('خطاب الوزارة.pdf');
    expect(cleanFileName('report 📎.pdf', 'x.pdf')).toBe('report 📎.pdf');
    expect(cleanFileName('invoice\u202Efdp.exe', 'x.pdf')).toBe('invoicefdp.exe');
    expect(cleanFileName('C:\\Users\\clerk\\scan\u0000.pdf', 'x.pdf')).toBe('scan.pdf');
    expect(cleanFileName('a\uD800b.pdf', 'x.pdf')).toBe('ab.pdf');
    expect(cleanFileName('\u200F\u2066', 'fallback.pdf')).toBe('fallback.pdf');
    expect(cleanFileName('..', 'fallback.pdf')).toBe('fallback.pdf');
    const long = `${'ب'.repeat(300)}.pdf`;
    expect(cleanFileName(long, 'x.pdf')).toHaveLength(200);
    expect(cleanFileName(long, 'x.pdf').endsWith('.pdf')).toBe(true);
  });
});
