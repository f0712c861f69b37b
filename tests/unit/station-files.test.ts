/** The station's file rules: what it ignores, which number a name carries, and moves that never overwrite. */
import { existsSync, linkSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeTarget, isIgnored, moveOnce, numberInName } from '../../src-main/station/files';

describe('station files', () => {
  it('ignores system, hidden and temporary files, not scans', () => {
    for (const name of [
      'desktop.ini',
      'Thumbs.db',
      '.DS_Store',
      '._scan.pdf',
      '~$memo.docx',
      'scan.pdf.part',
      'a.tmp',
      'x.crdownload',
      '.hidden.pdf',
      'scan.pdf~',
    ])
      expect(isIgnored(name), name).toBe(true);
    // Everything else is a file someone dropped: taken or rejected with a note, never passed over.
    for (const name of [
      'scan0001.pdf',
      'وارد ١.pdf',
      'IN-2026-000123.pdf',
      'photo.jpg',
      'notes.txt',
      'letter.docx',
      'scan0002',
    ])
      expect(isIgnored(name), name).toBe(false);
  });

  it('reads a registration number at the start of a name only', () => {
    expect(numberInName('IN-2026-000123.pdf')).toBe('IN-2026-000123');
    expect(numberInName('IN-2026-000123 annex.pdf')).toBe('IN-2026-000123');
    expect(numberInName('IN-2026-000123_2.pdf')).toBe('IN-2026-000123');
    expect(numberInName('OUT-2025-1234567.pdf')).toBe('OUT-2025-1234567');
    for (const name of [
      'scan IN-2026-000123.pdf',
      'IN-2026-123.pdf',
      'IN-2026-0001234.pdf',
      'in-2026-000123.pdf',
      'IN-2026-000123x.pdf',
    ])
      expect(numberInName(name), name).toBeNull();
  });

  it('moves without overwriting, and finishes a move a crash cut between link and unlink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sijill-move-'));
    writeFileSync(join(dir, 'a.pdf'), 'first');
    const target = await freeTarget(join(dir, 'processed'), 'a.pdf');
    expect(await moveOnce(join(dir, 'a.pdf'), target)).toBe(true);
    writeFileSync(join(dir, 'a.pdf'), 'second');
    const second = await freeTarget(join(dir, 'processed'), 'a.pdf');
    expect(second).toBe(join(dir, 'processed', 'a (2).pdf'));
    await expect(moveOnce(join(dir, 'a.pdf'), target)).rejects.toThrow(); // never over the first
    expect(readFileSync(target, 'utf8')).toBe('first');
    // Crash after the link: the same file under both names; the move completes.
    linkSync(join(dir, 'a.pdf'), second);
    expect(await moveOnce(join(dir, 'a.pdf'), second)).toBe(true);
    expect(existsSync(join(dir, 'a.pdf'))).toBe(false);
    // Crash after the unlink: nothing to do, no error.
    expect(await moveOnce(join(dir, 'a.pdf'), second)).toBe(false);
  });
});
