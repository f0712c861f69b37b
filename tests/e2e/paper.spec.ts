/**
 * Paper (issue 26), in Chromium through the web shell: a clerk registers an incoming letter and prints
 * its registration sticker from the result screen (at the label's size, 70 × 35 mm, one image), the
 * sticker's PDF as the server makes it reads back as an image with both codes carrying the number, the
 * cover sheet prints from the detail's Print menu (A4) and both prints are on the timeline; then a
 * scanned batch made of that very cover sheet (upside down, skewed), a letter, a separator sheet and
 * another letter is dropped into the station's watched folder: the letter after the cover sheet is filed
 * on the document (its timeline names the batch and the page), the one after the separator becomes an
 * incoming draft. Both languages; screenshots in test-results/screens/paper-*.png.
 *
 * window.print is replaced by a recorder: what a test can check of printing is what was handed to the
 * print dialog (the print container's page size and images), not paper.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { expect, test } from './fixtures';
import { Api, seedArchiveOffice } from './support/api';
import { minimalPdf } from './support/pdf';
import { AdminShell } from './pages/AdminScreens';
import { CorrespondenceAddScreen } from './pages/CorrespondenceScreens';
import { makeLetterPage, rasterise, scanPage, wrapScans } from '../support/scan-makers';
import { PAGES } from '../../src-shared/pages';
import { stickerPayload } from '../../src-shared/paper-codes';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Paper#2025';
const BATCH = 'scan-0042';

test.describe.configure({ mode: 'serial' });

/** The page sizes handed to window.print, in order (the recorder of addInitScript). */
const printsOf = (page: Page) => page.evaluate(() => (window as unknown as { __prints: string[] }).__prints);

/** The codes zxing reads in a PNG (as tests/unit/labels-pdf.test.ts reads them). */
async function codesIn(png: Uint8Array) {
  const entry = createRequire(import.meta.url).resolve('zxing-wasm/reader');
  const wasm = await readFile(join(dirname(entry), '../../reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
  const results = await readBarcodes(png, {
    formats: ['QRCode', 'Code128'],
    tryHarder: true,
    maxNumberOfSymbols: 8,
  });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}

test('a clerk prints the sticker and the cover sheet, and a scanned batch is filed by its codes', async ({
  page,
  shell,
}) => {
  test.setTimeout(360_000);
  const office = await seedArchiveOffice(await Api.administrator(shell.apiBaseUrl), {
    roleName: 'Paper Clerk',
    pages: {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit'],
    },
    username: 'paper',
    password: PASSWORD,
  });
  const clerk = office.clerk;
  await page.addInitScript(() => {
    const w = window as unknown as { __prints: string[] };
    w.__prints = [];
    window.print = () => {
      w.__prints.push(document.getElementById('pdfv-print')?.dataset.pageSize ?? 'none');
    };
  });

  // Registered through the form, in Arabic (the default).
  const app = new AdminShell(page);
  const add = new CorrespondenceAddScreen(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await app.open(shell.url);
  await app.signIn('paper', PASSWORD);
  await app.goTo(shell.url, PAGES.inboxAdd);
  await add.fill({
    codification: 'وارد عام',
    subject: 'طلب تجديد عقد الصيانة',
    summary: 'تطلب الوزارة تجديد عقد صيانة مبنى الأرشيف.',
    sender: 'وزارة الصحة',
    senderNumber: 'MOH-5120',
    recipient: 'الشؤون المالية',
    documentDate: new Date().toLocaleDateString('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: '2-digit',
    }),
    pdf: { name: 'letter.pdf', buffer: minimalPdf() },
  });
  const number = await add.register();
  expect(number).toMatch(/^IN-\d{4}-\d+$/);

  // The sticker in one click: handed to the print dialog at the label's size, one page at 300 dpi.
  await expect(page.getByTestId('sticker-always')).not.toBeChecked();
  await page.getByTestId('register-print-sticker').click();
  await expect.poll(() => printsOf(page), { timeout: 60_000 }).toEqual(['70x35']);
  const images = page.locator('#pdfv-print img');
  await expect(images).toHaveCount(1);
  const natural = await images.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  // 70 × 35 mm at 300 dpi: 827 × 413 pixels (give or take the rounding).
  expect(Math.abs(natural[0]! - 827)).toBeLessThanOrEqual(2);
  expect(Math.abs(natural[1]! - 413)).toBeLessThanOrEqual(2);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/paper-registered-ar.png`, fullPage: true });

  await page.getByTestId('registered-open').click();
  await expect(page.getByTestId('document-detail')).toBeVisible();
  const id = Number(/\/(\d+)$/.exec(new URL(page.url()).hash)?.[1]);
  expect(id).toBeGreaterThan(0);

  // The sticker as the server makes it (what the printer got), looked at as an image: both codes read.
  const sticker = await clerk.bytes(`/correspondence/documents/${id}/sticker?size=70x35`);
  const raster = await rasterise(sticker, 1, 300);
  const png = await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 1 } })
    .png()
    .toBuffer();
  writeFileSync(`${SCREENS}/paper-sticker.png`, png);
  const codes = await codesIn(png);
  expect(codes).toContainEqual({ format: 'QRCode', text: stickerPayload(number) });
  expect(codes).toContainEqual({ format: 'Code128', text: number });

  // The cover sheet from the Print menu: A4. The timeline says each print (the sticker twice by now).
  await page.getByTestId('paper-menu').click();
  await page.getByTestId('print-cover').click();
  await expect.poll(() => printsOf(page), { timeout: 60_000 }).toEqual(['70x35', '210x297']);
  const timeline = page.getByTestId('timeline');
  await expect(timeline.getByTestId('timeline-coverSheetPrinted')).toContainText('طبع صفحة الغلاف');
  await expect(timeline.getByTestId('timeline-stickerPrinted').first()).toContainText('طبع ملصق القيد');
  await expect(timeline.getByTestId('timeline-stickerPrinted').nth(1)).toContainText('أعاد طباعة ملصق القيد');

  // The station watches a folder on this desk.
  const folder = mkdtempSync(join(tmpdir(), 'sijill-paper-'));
  await app.goTo(shell.url, PAGES.userSettings);
  const station = page.getByTestId('station-card');
  await station.getByTestId('station-folder-add').click();
  await station.getByTestId('station-folder-0').fill(folder);
  await station.getByTestId('station-enabled').click();
  await station.getByTestId('station-save').click();
  await expect(station.getByTestId('station-state')).toHaveText('تعمل');

  // The batch: the cover sheet upside down and skewed, a letter, a separator, another letter.
  const cover = await clerk.bytes(`/correspondence/documents/${id}/cover-sheet`);
  const separator = await clerk.bytes('/correspondence/separator-sheet');
  const batch = await wrapScans([
    await scanPage(cover, { rotate: 180, skew: 2, noise: 0.003, blur: 0.5, seed: 1 }),
    await scanPage(await makeLetterPage(2601), { noise: 0.003, seed: 2 }),
    await scanPage(separator, { skew: -1, noise: 0.003, seed: 3 }),
    await scanPage(await makeLetterPage(2602), { skew: 1, noise: 0.003, seed: 4 }),
  ]);
  writeFileSync(join(folder, `${BATCH}.pdf`), batch);
  // A wait on real work (the batch settles, is sent, its pages read for codes): minutes as a ceiling.
  await expect(station.getByTestId('station-count-done')).toContainText('1', { timeout: 180_000 });
  await expect.poll(() => readdirSync(join(folder, 'processed'))).toEqual([`${BATCH}.pdf`]);

  // Page 2 is on the document, its timeline naming the batch and the page.
  await app.goTo(shell.url, `${PAGES.incoming}/${id}`);
  // No reload: the station's panel dropped the cached detail when the batch was filed (StationCard).
  await expect(page.getByTestId('document-detail')).toBeVisible();
  await expect(page.getByTestId('attachments-panel')).toContainText(`${BATCH} (2).pdf`);
  const fromBatch = timeline.getByTestId('timeline-batch');
  await expect(fromBatch).toHaveCount(1);
  await expect(fromBatch).toContainText('من دفعة المسح');
  await expect(fromBatch).toContainText('الصفحة 2');
  await expect(fromBatch).toContainText(BATCH);
  // Page 4, after the separator, is an incoming draft of its own.
  const drafts = await clerk.ok<{ items: { subject: string }[] }>(
    'GET',
    '/correspondence/boxes/inbox-drafts',
  );
  expect(drafts.items.map((d) => d.subject)).toContain(`${BATCH} (4)`);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/paper-detail-ar.png`, fullPage: true });

  // English: the same timeline, and the settings' paper card.
  await app.switchLanguage();
  await expect(fromBatch).toContainText(`From the scanned batch ${BATCH}`);
  await expect(fromBatch).toContainText('page 2');
  await expect(timeline.getByTestId('timeline-stickerPrinted').first()).toContainText(
    'Printed the registration sticker',
  );
  await expect(timeline.getByTestId('timeline-stickerPrinted').nth(1)).toContainText(
    'Printed the registration sticker again (copy 2)',
  );
  await expect(timeline.getByTestId('timeline-coverSheetPrinted').first()).toContainText(
    'Printed the cover sheet',
  );
  await page.screenshot({ path: `${SCREENS}/paper-detail-en.png`, fullPage: true });

  await app.goTo(shell.url, PAGES.userSettings);
  const paper = page.getByTestId('paper-card');
  await expect(paper).toContainText('Stickers and scanning sheets');
  await expect(paper).toContainText('Label 70 × 35 mm (label printer)');
  // The size never chosen is 70 × 35 mm (what the sticker printed at).
  await expect(paper.getByTestId('sticker-size-70x35')).toBeChecked();
  await expect(paper.getByTestId('sticker-printer-web')).toContainText('print dialog');
  await page.evaluate(() => ((window as unknown as { __prints: string[] }).__prints.length = 0));
  await paper.getByTestId('print-separator').click();
  await expect.poll(() => printsOf(page), { timeout: 60_000 }).toEqual(['210x297']);
  // From the top: a full-page picture of a scrolled page draws the sticky side menu halfway down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENS}/paper-settings-en.png`, fullPage: true });
});
