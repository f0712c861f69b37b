/**
 * The pages of the OCR digits benchmark (bench/search/ocr-digits.ts): office sentences carrying numbers as
 * letters carry them — circular numbers (٢٠٢٦/٤٥٦/ص), dates (١٥/٠٣/٢٠٢٦), amounts with the Arabic thousands
 * separator (١٢٬٥٠٠), telephone numbers, plain counts — in Arabic-Indic digits inside Arabic sentences,
 * in Latin digits inside Arabic sentences, and in Latin digits inside English ones. Each line is kept as
 * its parts (letters, numbers), so what OCR read can be scored on the numbers apart from the letters.
 * Seeded: the same pages on every run.
 */

/** A part of a reference line: a run of words, or one number written in one digit family. */
export interface LinePart {
  text: string;
  kind: 'letters' | 'number';
}

/** One page: its language, the digit family of its numbers, and its lines as parts. */
export interface DigitPage {
  language: 'ar' | 'en';
  digits: 'arabic-indic' | 'latin';
  lines: LinePart[][];
}

const ARABIC_WORDS = (
  'الكتاب المذكرة الإدارة المدير القسم الموظف الأرشيف الوارد الصادر الإحالة الإجراء الموافقة الطلب ' +
  'الاجتماع التقرير المراسلات الموضوع الملف المرفقات التوقيع الاعتماد المتابعة اللجنة الميزانية ' +
  'المشروع العقد الفاتورة الشركة الوزارة المالية الموارد البشرية الشؤون القانونية العامة بشأن ' +
  'بخصوص إلى من على في مع بعد قبل خلال نرجو يرجى تمت سيتم إرسال استلام مراجعة اعتماد توزيع حفظ ' +
  'تسجيل إعداد رفع تحديث للعلم للإجراء عاجل سري هام جديد سنوي'
).split(' ');
const ENGLISH_WORDS = (
  'letter memo department director section employee archive incoming outgoing referral action approval ' +
  'request meeting report correspondence subject file attachments signature review committee budget ' +
  'project contract invoice company ministry finance human resources legal affairs general regarding ' +
  'about to from on in with after before during please kindly was will be sent received reviewed ' +
  'approved distributed filed registered prepared updated urgent confidential important new annual'
).split(' ');

/** The words a number is introduced by, as letters write them. */
const ARABIC_LEADS: Record<NumberShape, string> = {
  circular: 'التعميم رقم',
  date: 'بتاريخ',
  amount: 'بمبلغ',
  phone: 'هاتف',
  count: 'عدد',
};
const ENGLISH_LEADS: Record<NumberShape, string> = {
  circular: 'circular no.',
  date: 'dated',
  amount: 'amount',
  phone: 'telephone',
  count: 'count',
};

type NumberShape = 'circular' | 'date' | 'amount' | 'phone' | 'count';
const SHAPES: NumberShape[] = ['circular', 'date', 'amount', 'phone', 'count'];

/** mulberry32: a small seeded generator. */
export function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INDIC = '٠١٢٣٤٥٦٧٨٩';
/** Latin digits written as Arabic-Indic ones. */
export const toArabicIndic = (text: string) => text.replace(/[0-9]/g, (d) => INDIC[Number(d)]!);

/** A number of `shape` in Latin digits (and Latin punctuation), as the letter would write it. */
function numberOf(shape: NumberShape, language: 'ar' | 'en', random: () => number): string {
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  switch (shape) {
    case 'circular': {
      const year = int(2019, 2027);
      const serial = int(12, 9876);
      if (language === 'en') return `${year}/${serial}`;
      // Arabic circulars carry an office letter (ص for outgoing, و for incoming, م for memo).
      return `${year}/${serial}/${'صوم'[int(0, 2)]}`;
    }
    case 'date':
      return `${pad(int(1, 28), 2)}/${pad(int(1, 12), 2)}/${int(2019, 2027)}`;
    case 'amount': {
      const thousands = int(1, 999);
      return `${thousands}${language === 'ar' ? '\u066c' : ','}${pad(int(0, 999), 3)}`;
    }
    case 'phone':
      return `0${int(1, 9)}${pad(int(0, 9999999), 7)}`;
    case 'count':
      return String(int(3, 4999));
  }
}

function line(page: Omit<DigitPage, 'lines'>, random: () => number): LinePart[] {
  const words = page.language === 'ar' ? ARABIC_WORDS : ENGLISH_WORDS;
  const leads = page.language === 'ar' ? ARABIC_LEADS : ENGLISH_LEADS;
  const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!);
  const parts: LinePart[] = [{ text: pick(2 + Math.floor(random() * 3)).join(' '), kind: 'letters' }];
  const numbers = 1 + Math.floor(random() * 2);
  for (let i = 0; i < numbers; i += 1) {
    const shape = SHAPES[Math.floor(random() * SHAPES.length)]!;
    let number = numberOf(shape, page.language, random);
    if (page.digits === 'arabic-indic') number = toArabicIndic(number);
    parts.push({ text: leads[shape], kind: 'letters' });
    parts.push({ text: number, kind: 'number' });
    parts.push({ text: pick(1 + Math.floor(random() * 3)).join(' '), kind: 'letters' });
  }
  if (page.language === 'en') parts[0]!.text = parts[0]!.text[0]!.toUpperCase() + parts[0]!.text.slice(1);
  return parts;
}

/**
 * `count` pages in turn: Arabic with Arabic-Indic digits, English, Arabic with Arabic-Indic digits, Arabic
 * with Latin digits (so half the pages are the case the benchmark is for), `linesPerPage` lines each.
 */
export function digitPages(count: number, linesPerPage = 12, seed = 20260315): DigitPage[] {
  const random = seeded(seed);
  const kinds: Omit<DigitPage, 'lines'>[] = [
    { language: 'ar', digits: 'arabic-indic' },
    { language: 'en', digits: 'latin' },
    { language: 'ar', digits: 'arabic-indic' },
    { language: 'ar', digits: 'latin' },
  ];
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    return { ...kind, lines: Array.from({ length: linesPerPage }, () => line(kind, random)) };
  });
}

/** A line's text as written on the page. */
export const lineText = (parts: LinePart[]) => parts.map((p) => p.text).join(' ');
