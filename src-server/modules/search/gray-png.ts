/**
 * A minimal PNG encoder for 8-bit grayscale images: the OCR child turns a rendered page into one before
 * handing it to Tesseract (a third of the bytes of RGBA, and no image library to load for it).
 */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The luminance of RGBA pixels (ITU-R BT.601 weights, over a white background where transparent), one
 * byte a pixel: what Tesseract reads, and what the Arabic-Indic digits are read again from
 * (arabic-digits.ts).
 */
export function rgbaToGray(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  if (rgba.length < width * height * 4) throw new Error('rgbaToGray: not enough pixel data');
  const grey = new Uint8Array(width * height);
  for (let i = 0, o = 0; o < grey.length; i += 4, o += 1) {
    const a = rgba[i + 3]!;
    const lum = (rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114) / 1000;
    grey[o] = Math.round((lum * a + 255 * (255 - a)) / 255);
  }
  return grey;
}

/**
 * Converts RGBA pixels (as a canvas gives them) to luminance (ITU-R BT.601 weights, over a white
 * background where transparent) and encodes them as a grayscale PNG carrying its resolution (pHYs), so
 * Tesseract knows the scale of the text.
 */
export function rgbaToGrayPng(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  dpi: number,
) {
  if (rgba.length < width * height * 4) throw new Error('rgbaToGrayPng: not enough pixel data');
  const grey = rgbaToGray(rgba, width, height);
  // Each row starts with its filter type (0: none).
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) raw.set(grey.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  const phys = Buffer.alloc(9);
  const perMetre = Math.round(dpi / 0.0254);
  phys.writeUInt32BE(perMetre, 0);
  phys.writeUInt32BE(perMetre, 4);
  phys[8] = 1; // unit: metre
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('pHYs', phys),
    chunk('IDAT', deflateSync(raw, { level: 3 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
