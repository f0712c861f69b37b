/**
 * QR codes and Code 128 barcodes drawn as vector rectangles (crisp at any printer resolution), with their
 * quiet zones left blank: 4 modules around a QR code, 10 on each side of a Code 128.
 */
import bwipjs from 'bwip-js/node';
import { rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

export const MM = 72 / 25.4;
/** Quiet zone of a QR code, in modules (ISO/IEC 18004). */
export const QR_QUIET = 4;
/** Quiet zone of a Code 128 on each side, in modules (ISO/IEC 15417). */
export const CODE128_QUIET = 10;

/** A QR code's modules (medium error correction: a smudge or a staple hole still reads). */
export function qrMatrix(text: string): { size: number; dark(row: number, col: number): boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => Boolean(modules.get(row, col)) };
}

/** The side of a QR code with its quiet zone, in modules. */
export const qrSideModules = (text: string) => qrMatrix(text).size + 2 * QR_QUIET;

/**
 * Draws a QR code whose quiet zone's bottom-left corner is at (x, y), `module` points per module;
 * answers its side (with the quiet zone) in points.
 */
export function drawQr(page: PDFPage, text: string, x: number, y: number, module: number): number {
  const matrix = qrMatrix(text);
  const top = y + (matrix.size + QR_QUIET) * module;
  for (let row = 0; row < matrix.size; row += 1) {
    // Dark modules side by side in a row are one rectangle: fewer operators, no hairline seams.
    for (let col = 0; col < matrix.size;) {
      if (!matrix.dark(row, col)) {
        col += 1;
        continue;
      }
      let end = col;
      while (end < matrix.size && matrix.dark(row, end)) end += 1;
      page.drawRectangle({
        x: x + (QR_QUIET + col) * module,
        y: top - (row + 1) * module,
        width: (end - col) * module,
        height: module,
        color: rgb(0, 0, 0),
      });
      col = end;
    }
  }
  return (matrix.size + 2 * QR_QUIET) * module;
}

/** A Code 128's bar and space widths in modules, bar first (bwip-js picks the shortest code sets). */
export function code128Widths(text: string): number[] {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text });
  if (!symbol || !('sbs' in symbol)) throw new Error('Code 128 could not be encoded');
  return symbol.sbs;
}

/** The width of a Code 128 with its quiet zones, in modules. */
export const code128WidthModules = (text: string) =>
  code128Widths(text).reduce((sum, w) => sum + w, 0) + 2 * CODE128_QUIET;

/**
 * Draws a Code 128 whose left quiet zone starts at x and whose bars stand on y, `module` points per
 * narrow bar, `height` points high; answers its width with the quiet zones in points.
 */
export function drawCode128(
  page: PDFPage,
  text: string,
  x: number,
  y: number,
  module: number,
  height: number,
): number {
  let at = x + CODE128_QUIET * module;
  code128Widths(text).forEach((width, index) => {
    if (index % 2 === 0) page.drawRectangle({ x: at, y, width: width * module, height, color: rgb(0, 0, 0) });
    at += width * module;
  });
  return at + CODE128_QUIET * module - x;
}
