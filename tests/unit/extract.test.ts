/**
 * PDF text extraction (src-server/modules/search/extract.ts) on real files made here: an Arabic PDF printed
 * by Chromium (which stores Arabic in visual order), its text layer read in the child process and not by
 * pdf.js on the server's thread, scans with no text layer read by OCR in the same child, broken and
 * encrypted files, aborting, a crash of the OCR child, and progress over many pages.
 * Needs Debian's Chromium; skipped (saying so) without it.
 */
import { fork, type Serializable } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distance } from 'fastest-levenshtein';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeOcr, extractPdfText, PdfExtractionError } from '../../src-server/modules/search/extract';
import {
  forkOcrChild,
  ocrChildEntry,
  ocrService,
  setOcrLauncher,
  utilityProcessOcrLauncher,
  type UtilityProcessFork,
  type UtilityProcessLike,
} from '../../src-server/modules/search/ocr-process';
import { loadPdfJs } from '../../src-server/pdfjs';
import { layoutPageText, layoutPageTextMapped, type PositionedText } from '../../src-shared/text-layout';

const normalizeNFKC = (ch: string) => ch.normalize('NFKC');
import {
  canMakePdfs,
  makeBornDigitalPdf,
  makeBrokenPdf,
  makeEncryptedPdf,
  makeScannedPdf,
} from '../support/pdf-makers';
import { characterErrorRate } from '../support/ocr-measure';

/**
 * A guard against a hang (Chromium runs and OCR of a few pages on two cores other work also wants), never
 * a speed limit: minutes, not seconds.
 */
const SLOW = 10 * 60_000;
/** The same for a process to end once it was told to (a killed or closed OCR child). */
const GONE_CEILING_MS = 2 * 60_000;

const reversed = (word: string) => [...word].reverse().join('');

/** Whether the process `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const ARABIC_LETTER = [
  'مذكرة داخلية بشأن أرشفة المراسلات الواردة',
  'تمت إحالة الكتاب رقم 125 إلى قسم IT بتاريخ 2024/05/01 للإجراء',
  'The archive keeps incoming and outgoing mail',
  'يرجى مراجعة الملف (رقم 45) قبل الاجتماع.',
  'نسبة الإنجاز 75% حتى الآن، والباقي 25%.',
];

const SCANNED_ARABIC = [
  'إلى: مدير إدارة الموارد البشرية',
  'الموضوع: طلب إجازة سنوية لمدة عشرة أيام',
  'تحية طيبة وبعد، أرجو التكرم بالموافقة على منحي إجازة سنوية',
  'اعتبارا من تاريخ ١٥ مارس ٢٠٢٤ وحتى ٢٥ مارس ٢٠٢٤',
  'وذلك لظروف عائلية خاصة، علما بأن رصيدي من الإجازات يسمح بذلك.',
  'وتفضلوا بقبول فائق الاحترام والتقدير',
  'مقدم الطلب: أحمد محمد علي - قسم الأرشيف',
];

const SCANNED_ENGLISH = [
  'To: Director of Human Resources',
  'Subject: Request for annual leave of ten days',
  'Dear Sir, I kindly request your approval of my annual leave',
  'from 15 March 2024 until 25 March 2024 for family reasons.',
  'My remaining leave balance allows this request.',
  'Reference number: HR/2024/0153, Archive Department',
  'Yours sincerely, Ahmed Mohammed Ali',
];

if (!canMakePdfs())
  console.warn('extract.test.ts: skipped, no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

describe.skipIf(!canMakePdfs())('extractPdfText', { timeout: SLOW }, () => {
  let dir: string;
  let letter: string;
  let scan: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sijill-extract-'));
    [letter, scan] = await Promise.all([
      makeBornDigitalPdf(ARABIC_LETTER, dir, { name: 'letter' }),
      makeScannedPdf([SCANNED_ARABIC, SCANNED_ENGLISH], dir, { name: 'scan' }),
    ]);
  }, SLOW);

  afterAll(async () => {
    await closeOcr();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a Chromium-printed Arabic letter in logical order, though Chromium stores Arabic visually', async () => {
    // What a naive reader gets: pdf.js items joined in content-stream order. Its Arabic letters (taken
    // alone, presentation forms mapped to letters) run backwards within each line: far from the text as
    // written, close to it reversed line by line.
    const { lib, root } = await loadPdfJs();
    const doc = await lib.getDocument({
      url: pathToFileURL(letter).href,
      standardFontDataUrl: `${root}/standard_fonts/`,
      cMapUrl: `${root}/cmaps/`,
      wasmUrl: `${root}/wasm/`,
      verbosity: 0,
    }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    const naive = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    await doc.destroy();
    const arabicLetters = (text: string) => text.normalize('NFKC').replace(/[^\u0621-\u064a]/g, '');
    const written = ARABIC_LETTER.map(arabicLetters).join('');
    const backwards = ARABIC_LETTER.map((line) => reversed(arabicLetters(line))).join('');
    const naiveLetters = arabicLetters(naive);
    expect(naiveLetters.length).toBe(written.length);
    expect(distance(naiveLetters, backwards)).toBeLessThan(distance(naiveLetters, written) / 2);
    for (const line of ARABIC_LETTER.filter((l) => /[\u0600-\u06ff]/.test(l)))
      expect(naive).not.toContain(line);

    const pages = await extractPdfText(letter);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.method).toBe('text');
    // Line by line as written: Arabic in reading order, with the Latin word, the number, the date, the
    // brackets and the percent signs where the writer put them; the English line untouched.
    expect(pages[0]!.text.split('\n')).toEqual(ARABIC_LETTER);
    expect(pages[0]!.text).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it('reads the text layer in the OCR child, never with pdf.js on the server thread', async () => {
    // pdf.js's page and document classes, patched in this process: extraction must not reach them here.
    const { lib, root } = await loadPdfJs();
    const probe = await lib.getDocument({
      url: pathToFileURL(letter).href,
      standardFontDataUrl: `${root}/standard_fonts/`,
      verbosity: 0,
    }).promise;
    const probePage = await probe.getPage(1);
    const getPage = vi.spyOn(Object.getPrototypeOf(probe) as typeof probe, 'getPage');
    const getTextContent = vi.spyOn(Object.getPrototypeOf(probePage) as typeof probePage, 'getTextContent');
    await probe.destroy();
    getPage.mockClear();
    // The child's answers, as the server receives them.
    const answers: { pid: number | undefined; type: string }[] = [];
    await closeOcr();
    setOcrLauncher(() => {
      const child = forkOcrChild();
      return {
        ...child,
        onMessage: (listener) =>
          child.onMessage((message) => {
            answers.push({ pid: child.pid, type: message.type });
            listener(message);
          }),
      };
    });
    try {
      const lines = ['First page of the minutes', 'Second page of the minutes', 'Third page'];
      const three = await makeBornDigitalPdf(lines, dir, { name: 'three-text', linesPerPage: 1 });
      const pages = await extractPdfText(three, { ocr: false });
      expect(pages.map((p) => [p.method, p.text])).toEqual(lines.map((line) => ['text', line]));
      expect(getPage).not.toHaveBeenCalled();
      expect(getTextContent).not.toHaveBeenCalled();
      const pid = ocrService.childPid;
      expect(pid).toBeTypeOf('number');
      expect(pid).not.toBe(process.pid);
      expect(answers.filter((a) => a.type === 'textDone')).toEqual(
        lines.map(() => ({ pid, type: 'textDone' })),
      );
    } finally {
      getPage.mockRestore();
      getTextContent.mockRestore();
      await closeOcr();
      setOcrLauncher(null);
    }
  });

  it('reads a scanned page with no text layer by OCR, Arabic and English', async () => {
    const pages = await extractPdfText(scan);
    expect(pages.map((p) => p.method)).toEqual(['ocr', 'ocr']);
    const arabic = characterErrorRate(pages[0]!.text, SCANNED_ARABIC.join(' '));
    const english = characterErrorRate(pages[1]!.text, SCANNED_ENGLISH.join(' '));
    // Measured (Debian 12, tesseract.js 7, ara+eng best_int): Arabic 0.092 — most of it the two dates in
    // Arabic-Indic digits, which the Arabic model reads poorly, and one phrase read as Latin letters;
    // English 0.003 (one `I` read as `|`). Bounds with some margin.
    expect(arabic).toBeLessThan(0.15);
    expect(english).toBeLessThan(0.03);
    // Lines stay lines, and Arabic words come out in reading order.
    expect(pages[0]!.text.split('\n').length).toBeGreaterThanOrEqual(SCANNED_ARABIC.length - 1);
    expect(pages[0]!.text).toContain('الموارد البشرية');
    // Tesseract's cache is off: no language data is written to the working folder.
    expect(readdirSync(process.cwd()).filter((name) => name.includes('traineddata'))).toEqual([]);
  });

  it('leaves scanned pages empty when OCR is off', async () => {
    const pages = await extractPdfText(scan, { ocr: false });
    expect(pages).toEqual([
      { page: 1, text: '', method: 'empty' },
      { page: 2, text: '', method: 'empty' },
    ]);
  });

  it('rejects a broken PDF, an encrypted one, a file that is no PDF and a missing file, saying why', async () => {
    const broken = makeBrokenPdf(dir);
    await expect(extractPdfText(broken)).rejects.toMatchObject({
      name: 'PdfExtractionError',
      reason: 'invalid',
      message: expect.stringContaining('damaged'),
    });

    const encrypted = makeEncryptedPdf(dir, { userPassword: 'sesame', text: 'Confidential minutes 42' });
    const error = await extractPdfText(encrypted).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfExtractionError);
    expect(error).toMatchObject({
      reason: 'encrypted',
      message: expect.stringMatching(/encrypted.*password/),
    });
    // The file is really encrypted (not merely damaged): with its password, pdf.js reads the page.
    const { lib } = await loadPdfJs();
    const doc = await lib.getDocument({
      url: pathToFileURL(encrypted).href,
      password: 'sesame',
      verbosity: 0,
    }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    expect(content.items.map((item) => ('str' in item ? item.str : '')).join('')).toBe(
      'Confidential minutes 42',
    );
    await doc.destroy();

    await expect(extractPdfText(join(dir, 'letter.html'))).rejects.toMatchObject({ reason: 'not-pdf' });
    await expect(extractPdfText(join(dir, 'no-such.pdf'))).rejects.toMatchObject({ reason: 'missing' });
  });

  it('reports progress page by page over a long born-digital PDF, and stops at maxPages', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `الصفحة رقم ${i + 1} من محضر الاجتماع السنوي`);
    const long = await makeBornDigitalPdf(lines, dir, { name: 'long', linesPerPage: 1 });
    const seen: [number, number][] = [];
    const pages = await extractPdfText(long, { onProgress: (done, total) => seen.push([done, total]) });
    expect(pages.map((p) => p.text)).toEqual(lines);
    expect(pages.every((p, i) => p.page === i + 1 && p.method === 'text')).toBe(true);
    expect(seen).toEqual(lines.map((_, i) => [i + 1, 30]));

    const capped: [number, number][] = [];
    const first = await extractPdfText(long, { maxPages: 4, onProgress: (d, t) => capped.push([d, t]) });
    expect(first.map((p) => p.text)).toEqual(lines.slice(0, 4));
    expect(capped.at(-1)).toEqual([4, 4]);
  });

  it('stops when aborted, killing the OCR child that reads the page, and reads again afterwards', async () => {
    const already = new AbortController();
    already.abort();
    await expect(extractPdfText(scan, { signal: already.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });

    const three = await makeScannedPdf([['الصفحة الأولى'], ['الصفحة الثانية'], ['الصفحة الثالثة']], dir, {
      name: 'three',
    });
    const controller = new AbortController();
    let reading: number | undefined;
    const pages: number[] = [];
    const run = extractPdfText(three, {
      signal: controller.signal,
      onProgress: (done) => {
        pages.push(done);
        // Abort once page 2 has gone to the child (it is sent right after page 1 is counted).
        if (done === 1)
          setImmediate(() => {
            reading = ocrService.childPid;
            controller.abort();
          });
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(pages).toEqual([1]);
    expect(reading).toBeTypeOf('number');
    await vi.waitFor(() => expect(alive(reading!)).toBe(false), { timeout: GONE_CEILING_MS, interval: 50 });

    // A fresh child takes the next file.
    const again = await extractPdfText(three);
    expect(again.map((p) => p.method)).toEqual(['ocr', 'ocr', 'ocr']);
    expect(again[2]!.text).toContain('الثالثة');
  });

  it('starts a new OCR child when the one reading a page crashes, and reads the page again', async () => {
    const two = await makeScannedPdf([['Crash test first page'], ['Crash test second page']], dir, {
      name: 'two',
      dir: 'ltr',
    });
    let crashed: number | undefined;
    const pages = await extractPdfText(two, {
      onProgress: (done) => {
        if (done === 1)
          setImmediate(() => {
            crashed = ocrService.childPid;
            process.kill(crashed!, 'SIGKILL');
          });
      },
    });
    expect(crashed).toBeTypeOf('number');
    expect(ocrService.childPid).not.toBe(crashed);
    expect(pages.map((p) => p.text)).toEqual(['Crash test first page', 'Crash test second page']);
  });

  it('keeps the OCR child between files and ends it on closeOcr', async () => {
    await extractPdfText(scan, { languages: 'eng' });
    const pid = ocrService.childPid;
    expect(pid).toBeTypeOf('number');
    await extractPdfText(scan, { languages: 'eng' });
    expect(ocrService.childPid).toBe(pid);
    await closeOcr();
    expect(ocrService.childPid).toBeUndefined();
    await vi.waitFor(() => expect(alive(pid!)).toBe(false), { timeout: GONE_CEILING_MS, interval: 50 });
  });
  it('runs the OCR child through a utility-process launcher (as a packaged Electron app does)', async () => {
    // Electron's utilityProcess.fork is not available under Node: this stand-in has its shape and starts
    // the child with child_process.fork, so the adapter's messages, exit and kill are the real ones.
    const started: number[] = [];
    const forkUtility: UtilityProcessFork = (modulePath, args, options) => {
      const child = fork(modulePath, args, {
        execArgv: ocrChildEntry().execArgv,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      expect(options.serviceName).toBe('Sijill OCR');
      const utility = {
        get pid() {
          return child.pid;
        },
        stderr: child.stderr,
        postMessage: (message: unknown) => void child.send(message as Serializable),
        kill: () => child.kill('SIGKILL'),
        on(event: string, listener: (value?: unknown) => void) {
          if (event === 'exit') child.on('exit', (code) => listener(code ?? -1));
          else child.on(event, listener);
          return utility;
        },
      };
      child.once('spawn', () => started.push(child.pid!));
      return utility as UtilityProcessLike;
    };
    await closeOcr();
    setOcrLauncher(utilityProcessOcrLauncher(forkUtility));
    try {
      const pages = await extractPdfText(scan, { languages: 'eng' });
      expect(pages[1]!.text).toContain('Human Resources');
      expect(started).toEqual([ocrService.childPid]);
    } finally {
      await closeOcr();
      setOcrLauncher(null);
    }
    await vi.waitFor(() => expect(alive(started[0]!)).toBe(false), {
      timeout: GONE_CEILING_MS,
      interval: 50,
    });
  });
});

describe('layoutPageText', () => {
  /** An item as pdf.js gives it: text, baseline start (x, y), advance width, font size 12. */
  const item = (str: string, x: number, y: number, width: number): PositionedText => ({
    str,
    transform: [12, 0, 0, 12, x, y],
    width,
  });

  it('orders a line stored in logical order (whole words placed right to left) the same way', () => {
    // A producer that writes each Arabic word as one item, in reading order, from the right margin.
    const items = [
      item('تمت', 500, 700, 20),
      item(' ', 496, 700, 4),
      item('الموافقة', 440, 700, 56),
      item(' ', 436, 700, 4),
      item('على', 416, 700, 20),
      item(' ', 412, 700, 4),
      item('2024', 384, 700, 28),
    ];
    expect(layoutPageText(items)).toBe('تمت الموافقة على 2024');
    // The same line with its items stored in the opposite order gives the same text.
    expect(layoutPageText([...items].reverse())).toBe('تمت الموافقة على 2024');
  });

  it('puts lines top to bottom, adds spaces at gaps and drops bidi marks', () => {
    const items = [
      item('second', 72, 680, 40),
      item('\u200fline', 120, 680, 30),
      item('first', 72, 700, 30),
      item('\u202bline\u202c', 110, 700, 30),
    ];
    expect(layoutPageText(items)).toBe('first line\nsecond line');
  });

  it('ignores a missing text layer', () => {
    expect(layoutPageText([])).toBe('');
    expect(layoutPageText([item(' ', 72, 700, 0), item('\u0000', 80, 700, 5)])).toBe('');
  });
  it('says which character of which item each character of the text came from (find highlights by it)', () => {
    // An Arabic line drawn glyph by glyph from the left, in presentation forms, a mark as its own item, a
    // bracket drawn mirrored, and a second line with a gap for a space.
    const items = [
      item('(', 60, 700, 4),
      item('٥', 64, 700, 6),
      item(')', 70, 700, 4),
      item('ﺪ', 80, 700, 6),
      item('\u064f', 85, 700, 0),
      item('ﻤ', 86, 700, 6),
      item('ﺤ', 92, 700, 6),
      item('ﻣ', 98, 700, 6),
      item('second', 72, 680, 40),
      item('line', 120, 680, 24),
    ];
    const joined = items.map((i) => i.str).join('');
    const { text, src } = layoutPageTextMapped(items);
    expect(text).toBe(layoutPageText(items));
    expect(text).toBe('محمُد (٥)\nsecond line');
    expect(src).toHaveLength(text.length);
    const mirror: Record<string, string> = { '(': ')', ')': '(' };
    [...text].forEach((ch, i) => {
      if (src[i] === -1) expect(/\s/.test(ch), `unit ${i}`).toBe(true);
      else expect(normalizeNFKC(mirror[joined[src[i]!]!] ?? joined[src[i]!]!), `unit ${i}`).toBe(ch);
    });
    // The gaps the layout turned into spaces and the line break come from no item.
    expect(src.filter((s) => s === -1)).toHaveLength(3);
  });
});
