/**
 * The application's icons exist at the sizes the platforms ask for, the Windows icon holds them, and the
 * packaging configuration names files that exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('application icons', () => {
  it('has a PNG of every size, square and exact', () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(readFileSync(join(root, `assets/icons/${size}x${size}.png`)))).toEqual([size, size]);
    }
    expect(pngSize(readFileSync(join(root, 'assets/icon.png')))).toEqual([1024, 1024]);
    expect(pngSize(readFileSync(join(root, 'src-renderer/public/icon-256.png')))).toEqual([256, 256]);
    expect(pngSize(readFileSync(join(root, 'src-renderer/public/favicon.png')))).toEqual([64, 64]);
  });

  it('has a Windows .ico whose entries are PNGs of 16 to 256 pixels', () => {
    const ico = readFileSync(join(root, 'assets/icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      const length = ico.readUInt32LE(e + 8);
      const offset = ico.readUInt32LE(e + 12);
      const [w, h] = pngSize(ico.subarray(offset, offset + length));
      expect(w).toBe(h);
      expect(ico.readUInt8(e) || 256).toBe(w);
      sizes.push(w);
    }
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]));
  });

  it('electron-builder names icon files that exist', () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    const named = [...yml.matchAll(/^\s+icon:\s*(\S+)/gm)].map((m) => m[1]!);
    expect(named).toEqual(['assets/icon.ico', 'assets/icons']);
    for (const path of named) expect(existsSync(join(root, path)), path).toBe(true);
    expect(yml).toMatch(/buildResources: assets/);
  });
});
