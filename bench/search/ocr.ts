/**
 * OCR benchmark: `npx tsx bench/search/ocr.ts [pages]` (or BENCH_OCR_PAGES; default 10). Generates that many
 * scanned A4 pages (Chromium screenshots at 150 dpi wrapped by pdf-lib into one PDF with no text layer),
 * alternately Arabic and English, of sentences made from office vocabulary by a seeded generator (the same
 * pages on every run; Arabic pages carry some Arabic-Indic digits, as Arabic letters do), then reads them
 * through extractPdfText (ara+eng, the OCR child at nice 19) and measures:
 *
 * - pages per minute, over the whole run (the child's start and Tesseract's loading included) and per
 *   page after the first;
 * - the character error rate per language: Levenshtein distance / reference length, over text with
 *   whitespace collapsed and Arabic-Indic digits mapped to ASCII (for the comparison only);
 * - this process's event-loop delay (perf_hooks.monitorEventLoopDelay) idle for a few seconds, then while
 *   the OCR runs: this process plays the API server, and OCR must not starve it (pdf.js is loaded first,
 *   as the server does when it starts).
 *
 * Prints a table and the figures as JSON; nothing fails on a figure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closeOcr, extractPdfText } from '../../src-server/modules/search/extract';
import { loadPdfJs } from '../../src-server/pdfjs';
import { editErrors } from '../../tests/support/ocr-measure';
import { canMakePdfs, makeScannedPdf } from '../../tests/support/pdf-makers';
import { round, sleep, table } from '../station/support';
// A seeded generator (mulberry32), so every run reads the same pages.
import { seeded } from './digit-pages';

const PAGES = Number(process.argv[2] ?? process.env.BENCH_OCR_PAGES ?? 10);
const LINES_PER_PAGE = 12;
const IDLE_MS = 10_000;

const ARABIC_WORDS = (
  'الكتاب المذكرة الإدارة المدير القسم الموظف الأرشيف الوارد الصادر الإحالة الإجراء الموافقة الطلب ' +
  'الاجتماع التقرير المراسلات الموضوع التاريخ الرقم الملف المرفقات التوقيع الاعتماد المتابعة اللجنة ' +
  'الميزانية المشروع العقد الفاتورة الشركة الوزارة المالية الموارد البشرية الشؤون القانونية العامة ' +
  'بشأن حول بخصوص إلى من على في مع بعد قبل خلال لدى نرجو يرجى تمت سيتم تم إرسال استلام مراجعة ' +
  'اعتماد توزيع حفظ تسجيل إعداد رفع تحديث للعلم للإجراء عاجل سري هام جديد سنوي شهري الأول الثاني'
).split(' ');
const ENGLISH_WORDS = (
  'letter memo department director section employee archive incoming outgoing referral action approval ' +
  'request meeting report correspondence subject date number file attachments signature review committee ' +
  'budget project contract invoice company ministry finance human resources legal affairs general ' +
  'regarding about to from on in with after before during please kindly was will be sent received ' +
  'reviewed approved distributed filed registered prepared updated urgent confidential important new ' +
  'annual monthly first second the of and for'
).split(' ');

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

function sentences(language: 'ar' | 'en', count: number, random: () => number): string[] {
  const words = language === 'ar' ? ARABIC_WORDS : ENGLISH_WORDS;
  const pick = () => words[Math.floor(random() * words.length)]!;
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const line = Array.from({ length: 6 + Math.floor(random() * 3) }, pick);
    if (random() < 0.4) {
      let number = String(1 + Math.floor(random() * 2024));
      if (language === 'ar' && random() < 0.5)
        number = [...number].map((d) => ARABIC_INDIC[Number(d)]).join('');
      line.splice(1 + Math.floor(random() * (line.length - 1)), 0, number);
    }
    let text = line.join(' ');
    if (language === 'en') text = text[0]!.toUpperCase() + text.slice(1);
    lines.push(text + (language === 'ar' ? '.' : '.'));
  }
  return lines;
}

const ms = (ns: number) => round(ns / 1e6, 1);

async function main() {
  if (!canMakePdfs())
    throw new Error('Chromium is needed to make the scanned pages (apt-get install chromium)');
  const dir = await mkdtemp(join(tmpdir(), 'sijill-bench-ocr-'));
  try {
    const random = seeded(20240501);
    const pages = Array.from({ length: PAGES }, (_, i) => {
      const language: 'ar' | 'en' = i % 2 === 0 ? 'ar' : 'en';
      return { language, lines: sentences(language, LINES_PER_PAGE, random) };
    });
    const madeAt = performance.now();
    const pdf = await makeScannedPdf(
      pages.map((p) => p.lines),
      dir,
      { name: 'bench-scan' },
    );
    const makeSeconds = (performance.now() - madeAt) / 1000;

    // The server loads pdf.js as it starts (storage/validate.ts warmPdfChecks); loading it here, inside the
    // measurement, would count its one-off module evaluation (hundreds of ms under tsx) against OCR.
    await loadPdfJs();

    // This process's event loop idle, for comparison.
    const idle = monitorEventLoopDelay({ resolution: 10 });
    idle.enable();
    await sleep(IDLE_MS);
    idle.disable();

    const busy = monitorEventLoopDelay({ resolution: 10 });
    const pageDone: number[] = [];
    busy.enable();
    const started = performance.now();
    const result = await extractPdfText(pdf, { onProgress: () => pageDone.push(performance.now()) });
    const seconds = (performance.now() - started) / 1000;
    busy.disable();

    const perLanguage = { ar: { errors: 0, length: 0, pages: 0 }, en: { errors: 0, length: 0, pages: 0 } };
    const methods = new Set<string>();
    result.forEach((page, i) => {
      const spec = pages[i]!;
      const { errors, length } = editErrors(page.text, spec.lines.join(' '));
      const stats = perLanguage[spec.language];
      stats.errors += errors;
      stats.length += length;
      stats.pages += 1;
      methods.add(page.method);
    });
    const cer = (l: 'ar' | 'en') =>
      perLanguage[l].length ? perLanguage[l].errors / perLanguage[l].length : 0;
    const afterFirst =
      pageDone.length > 1 ? (pageDone.at(-1)! - pageDone[0]!) / 1000 / (pageDone.length - 1) : 0;

    const figures = {
      pages: PAGES,
      cores: cpus().length,
      makeSeconds: round(makeSeconds, 1),
      ocrSeconds: round(seconds, 1),
      pagesPerMinute: round((PAGES / seconds) * 60, 1),
      secondsPerPageAfterFirst: round(afterFirst, 2),
      pagesPerMinuteAfterFirst: afterFirst ? round(60 / afterFirst, 1) : null,
      cer: { ar: round(cer('ar'), 4), en: round(cer('en'), 4) },
      methods: [...methods],
      eventLoopDelayMs: {
        idle: { p50: ms(idle.percentile(50)), p95: ms(idle.percentile(95)), max: ms(idle.max) },
        duringOcr: { p50: ms(busy.percentile(50)), p95: ms(busy.percentile(95)), max: ms(busy.max) },
      },
    };

    console.log(
      table([
        ['figure', 'value'],
        ['pages (ar/en)', `${PAGES} (${perLanguage.ar.pages}/${perLanguage.en.pages})`],
        ['making the scans (Chromium, pdf-lib)', `${figures.makeSeconds} s`],
        ['OCR, whole run', `${figures.ocrSeconds} s`],
        ['pages per minute (whole run)', figures.pagesPerMinute],
        ['pages per minute (after the first page)', figures.pagesPerMinuteAfterFirst],
        ['CER Arabic', `${round(cer('ar') * 100, 2)} %`],
        ['CER English', `${round(cer('en') * 100, 2)} %`],
        [
          'event-loop delay idle p50 / p95 / max',
          `${Object.values(figures.eventLoopDelayMs.idle).join(' / ')} ms`,
        ],
        [
          'event-loop delay during OCR p50 / p95 / max',
          `${Object.values(figures.eventLoopDelayMs.duringOcr).join(' / ')} ms`,
        ],
      ]),
    );
    console.log('(event-loop delay: monitorEventLoopDelay at 10 ms resolution, so ~10 ms means no delay)');
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await closeOcr();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
