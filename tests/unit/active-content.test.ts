/**
 * The active-content scan reads a PDF a chunk at a time (a 200 MB scan is never held whole): whatever
 * the chunk size, an action in the object text or packed in an object stream is found, and names that
 * only occur inside a stream's bytes (an image's data) are never taken for actions.
 */
import { describe, expect, it } from 'vitest';
import { ActiveContentScanner, activeContentIn } from '../../src-server/storage/pdf-check';
import { objectStream, pdfWith } from '../api/support/files';

function scanInChunks(bytes: Buffer, size: number): string | null {
  const scanner = new ActiveContentScanner();
  for (let at = 0; at < bytes.length; at += size) {
    const found = scanner.feed(bytes.subarray(at, at + size));
    if (found) return found;
  }
  return scanner.end();
}

const SIZES = [1, 2, 3, 5, 7, 8, 9, 13, 64, 100, 333, 1024, 4096];

describe('ActiveContentScanner', () => {
  const inObjectText = pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /Launch /F (x.exe) >>'] });
  const packed = pdfWith({ objects: [objectStream(6, ['<< /S /JavaScript /JS (app.alert\\(1\\)) >>'])] });
  const escaped = pdfWith({ objects: ['<< /S /J#61vaScript /JS (x) >>'] });
  // Names inside stream data draw nothing: an image whose bytes happen to spell /JS or /Launch.
  const data = 'q /JS /Launch /JavaScript Q stream\nendstrea';
  const inStreamOnly = pdfWith({ objects: [`<< /Length ${data.length} >>\nstream\n${data}\nendstream`] });

  for (const size of SIZES) {
    it(`finds actions and ignores stream bytes in chunks of ${size} bytes`, () => {
      expect(scanInChunks(inObjectText, size)).toBe('Launch');
      expect(scanInChunks(packed, size)).toBe('JavaScript');
      expect(scanInChunks(escaped, size)).toBe('JavaScript');
      expect(scanInChunks(inStreamOnly, size)).toBeNull();
    });
  }

  it('the whole-buffer check is the same scan', () => {
    expect(activeContentIn(packed)).toBe('JavaScript');
    expect(activeContentIn(inStreamOnly)).toBeNull();
  });
});
