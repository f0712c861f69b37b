#!/usr/bin/env node
// Makes the application's icons from assets/icon.svg: PNGs of every size the platforms ask for
// (assets/icons/NxN.png, assets/icon.png at 1024), the Windows icon (assets/icon.ico, PNG entries of 16 to
// 256), the web shell's favicon and the window icon (src-renderer/public/favicon.png, icon-256.png). Run after changing the SVG:
// `node scripts/make-icons.mjs`; the outputs are committed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const root = resolve(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'assets/icon.svg'));
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

const png = (size) =>
  sharp(svg, { density: Math.max(72, (72 * size) / 1024) * 4 })
    .resize(size, size)
    .png()
    .toBuffer();

/** An ICO container holding PNG images (Windows Vista and later read PNG entries). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  const entries = [];
  let offset = 6 + 16 * images.length;
  for (const { size, data } of images) {
    const e = Buffer.alloc(16);
    e.writeUInt8(size >= 256 ? 0 : size, 0);
    e.writeUInt8(size >= 256 ? 0 : size, 1);
    e.writeUInt8(0, 2);
    e.writeUInt8(0, 3);
    e.writeUInt16LE(1, 4);
    e.writeUInt16LE(32, 6);
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    entries.push(e);
  }
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

mkdirSync(join(root, 'assets/icons'), { recursive: true });
const made = new Map();
for (const size of SIZES) {
  const data = await png(size);
  made.set(size, data);
  writeFileSync(join(root, `assets/icons/${size}x${size}.png`), data);
}
writeFileSync(join(root, 'assets/icon.png'), made.get(1024));
writeFileSync(join(root, 'assets/icon.ico'), ico(ICO_SIZES.map((size) => ({ size, data: made.get(size) }))));
mkdirSync(join(root, 'src-renderer/public'), { recursive: true });
writeFileSync(join(root, 'src-renderer/public/favicon.png'), made.get(64));
writeFileSync(join(root, 'src-renderer/public/icon-256.png'), made.get(256)); // the desktop window's icon
console.log(`icons: ${SIZES.join(', ')} px, icon.ico (${ICO_SIZES.join(', ')}), favicon`);
