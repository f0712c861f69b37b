/**
 * Arabic words for search, after src-shared/arabic.ts `normalizeArabic`: the letters of other keyboards
 * folded to ours, hamza however it is seated, and light stemming with the guesses it cannot avoid kept as
 * variants (docs/decisions.md, "Our own Arabic stemmer").
 *
 * The stemmer is Larkey's light10 (the best light stemmer of the TREC Arabic evaluations), widened where
 * correspondence needs it, each widening a variant beside light10's stem rather than a replacement, so a
 * word keeps the stem it always had:
 * - prefixes: the conjunctions و and ف, the article and its prefixed forms, a one-letter preposition
 *   (ب، ل، ك), the future سـ before an imperfect verb (سنرفع → نرفع);
 * - suffixes: the attached pronouns (كم، هم، هن، نا، كما، هما besides light10's ها، ه، ي), with ة written ت
 *   before them restored (جامعتنا → جامعة);
 * - ان، ون، ين: a dual or plural ending, or the word's own letters (برلمان، قانون). A stem keeps three
 *   letters when it loses one of them, a word of PROTECTED never does, and a form from which light10
 *   strips it (برلمان → برلم) also keeps the form with it, as the forms that keep it (برلمانات → برلمان,
 *   برلماني → برلمان) also get the form without it: the forms of one word always share a stem.
 */

/**
 * Letters of other keyboards and scripts (Urdu, Kurdish, Persian, Maghrebi) that stand for Arabic
 * letters, and the Latin sounds written with extra letters in foreign names (ڤ for v, پ for p, گ for g).
 */
const OTHER_LETTERS: Readonly<Record<string, string>> = {
  ھ: 'ه',
  ہ: 'ه',
  ە: 'ه',
  ۃ: 'ه',
  ۀ: 'ه',
  ۂ: 'ه',
  ڪ: 'ك',
  ګ: 'ك',
  گ: 'ك',
  ڭ: 'ك',
  ۍ: 'ي',
  ێ: 'ي',
  ې: 'ي',
  ے: 'ي',
  ۓ: 'ي',
  ۅ: 'و',
  ۆ: 'و',
  ۇ: 'و',
  ۈ: 'و',
  ۉ: 'و',
  ۋ: 'و',
  ۏ: 'و',
  ٲ: 'ا',
  ٳ: 'ا',
  ٵ: 'ا',
  ٶ: 'ء',
  ٷ: 'ء',
  ٸ: 'ء',
  ڤ: 'ف',
  ڥ: 'ف',
  ڨ: 'ق',
  پ: 'ب',
  چ: 'ج',
  ژ: 'ز',
};
const OTHER_PATTERN = new RegExp(`[${Object.keys(OTHER_LETTERS).join('')}]`, 'g');

/**
 * Hamza however it is written: on its seat (مسؤولية), on another seat (مسئولية), on the line (مسءولية) or
 * left out (مسوولية) are one word to an Arabic reader. The hamza inside a word goes (normalizeArabic has
 * already made ؤ and ئ a bare ء), the seat doubled by leaving it out is made single, and a final hamza after
 * alef goes (إنشاء, إنشائه). A final hamza after another letter stays (شيء, جزء: two letters without it).
 * Two spellings of a final hamza are folded first: the alef of the accusative tanween after it (جزءاً,
 * شيئاً, and بناءاً as many write بناءً), and a final ئ written as ى and ء apart, as Egypt writes it
 * (الطوارىء for الطوارئ, مبادىء; شئ for شيء alike); and the silent alef of مائة (مائة, ثلاثمائة, مائتين are
 * مئة, ثلاثمئة, مئتين). A doubled ي stays before ن, where it is the nisba's and the plural's
 * (الفنيين: فني + ين).
 */
export function foldHamza(word: string): string {
  let w = word
    .replace(/ءا$/, 'ء')
    .replace(/(?<=.)يء$/, 'ء')
    .replace(HUNDRED, '$1مء')
    .replace(/ء(?!$)/g, '')
    .replace(/وو/g, 'و')
    .replace(/يي(?!ن)/g, 'ي');
  if (w.length > 3 && w.endsWith('اء')) w = w.slice(0, -1);
  return w;
}

/** مائة and its forms after their prefixes (see foldHamza), in normalised spelling (ة → ه). */
const HUNDRED = /^((?:و|ف)?(?:ب|ل|ك)?(?:ال)?(?:ثلاث|اربع|خمس|ست|سبع|ثمان|تسع)?)ماء(?=(?:ه|تان|تين|تا|تي)$)/;

/** A normalised Arabic word with the letters of other keyboards folded and its hamza as above. */
export function foldArabicWord(word: string): string {
  return foldHamza(word.replace(OTHER_PATTERN, (c) => OTHER_LETTERS[c] ?? c));
}

/**
 * The word as written without its hamza but with its seat (مؤشر → موشر, نائب → نايب), as many type it:
 * a second spelling beside foldArabicWord's, for words written with a seated hamza (null otherwise). The
 * seat must be read before normalizeArabic, which makes ؤ and ئ a bare ء.
 */
export function seatedSpelling(raw: string): string | null {
  if (!/[ؤئ]/.test(raw)) return null;
  return raw.replace(/ؤ/g, 'و').replace(/ئ/g, 'ي');
}

/** Words whose final ان، ون or ين is their own (normalised, hamza folded): never stripped. */
export const PROTECTED: ReadonlySet<string> = new Set([
  'لبنان',
  'عمان',
  'سودان',
  'يونان',
  'ايران',
  'يابان',
  'اليابان',
  'اليونان',
  'السودان',
  'البحرين',
  'بحرين',
  'فلسطين',
  'الفلبين',
  'الصين',
  'صين',
  'بيان',
  'عنوان',
  'ميدان',
  'سلطان',
  'انسان',
  'مكان',
  'زمان',
  'ديوان',
  'امتحان',
  'حيوان',
  'بستان',
  'ميزان',
  'دكان',
  'طوفان',
  'لسان',
  'بنيان',
  'شيطان',
  'قانون',
  'تعاون',
  'مضمون',
  'مسجون',
  'فنون',
  'عيون',
  'ديون',
  'تمرين',
  'تدوين',
  'تكوين',
  'تخزين',
  'تامين',
  'تعيين',
  'تحسين',
  'تموين',
  'يمين',
  'امين',
  'دين',
  'طين',
  'سجين',
  'رهين',
  'ضمان',
  'اعلان',
  'ايمان',
  'امان',
  'احسان',
  'عدوان',
  'نيسان',
  'رمضان',
  'شعبان',
  'عثمان',
  'سليمان',
  'حسين',
  'ياسين',
  // Words and names whose ending, taken, leaves a common word of another meaning.
  'زيتون',
  'عربون',
  'كانون',
  'تشرين',
  'حزيران',
  'عمران',
  'سلمان',
  'عدنان',
  'حمدان',
]);

/**
 * The tens (عشرون … تسعون): ون and ين are their case endings, not a plural, and without them they are the
 * units (عشرين is not عشرة). Both cases are one stem, the nominative.
 */
const TENS: ReadonlyMap<string, string> = new Map(
  ['عشر', 'ثلاث', 'اربع', 'خمس', 'ست', 'سبع', 'ثمان', 'تسع'].flatMap((unit) => [
    [`${unit}ون`, `${unit}ون`],
    [`${unit}ين`, `${unit}ون`],
  ]),
);

/**
 * Words whose leading ف or س is their own letter though the rest is a word too (فيصل is not ف + يصل, فيلم
 * not ف + يلم): the conjunction and the future are never guessed in them.
 */
const OWN_FIRST: ReadonlySet<string> = new Set([
  'فيصل',
  'فيلم',
  'فيلا',
  'فيروس',
  'فيديو',
  'فيزا',
  'فندق',
  'فيضان',
  'سيول',
  'سيناء',
  'سينما',
]);

const ARTICLES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال'] as const;
/** light10's suffixes, in its order (each stripped once, at most). */
const SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي'] as const;
/** Endings that may be the word's own letters (see the header). */
const AMBIGUOUS = new Set(['ان', 'ون', 'ين']);
/**
 * Attached pronouns, longest first (light10 strips ها، ه، ي itself; here they matter for what stood
 * before them: ت for ة, ا for ى).
 */
const PRONOUNS = ['كما', 'هما', 'كم', 'هم', 'هن', 'نا', 'ها', 'ه', 'ي', 'ك'] as const;
/**
 * Pronouns taken from a word of two letters too (ردكم، حقكم: رد، حق), as light10 takes ها and ه. Not هم
 * and نا, which more often end a word's own letters (أسهم، درهم; سكناً، علناً).
 */
const AFTER_TWO: ReadonlySet<string> = new Set(['كما', 'هما', 'كم', 'هن']);

const isProtected = (w: string) => PROTECTED.has(w);

/** light10's suffix stripping, an ambiguous ending only from a protected-free stem of three letters. */
function stripSuffixes(word: string): string {
  let w = word;
  for (const suffix of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const rest = w.length - suffix.length;
    if (AMBIGUOUS.has(suffix) ? rest >= 3 && !isProtected(w) : rest >= 2) w = w.slice(0, -suffix.length);
  }
  return w;
}

/**
 * The stems of a word after its prefixes: light10's first, then the form keeping an ambiguous ending light10
 * took (or without one it kept), and the stems without an attached pronoun.
 */
function suffixStems(word: string, out: Set<string>): void {
  const add = (w: string) => {
    const stem = stripSuffixes(w);
    out.add(stem);
    // A nisba on a plural in ات (الإماراتية، معلوماتي، عملياتي): light10 takes the nisba only, the plural
    // loses its ات (الإمارات، معلومات); both stems are the word's.
    if (stem.endsWith('ات') && (w === `${stem}ي` || w === `${stem}يه`) && stem.length >= 5)
      out.add(stripSuffixes(stem.slice(0, -2)));
    // The forms of one word share a stem whether or not light10 took an ambiguous ending from it.
    for (const ending of AMBIGUOUS) {
      if (stem.endsWith(ending) && stem.length - 2 >= 3 && !isProtected(stem)) out.add(stem.slice(0, -2));
      if (w.endsWith(ending) && !stem.endsWith(ending) && w.length > stem.length) {
        const kept = stripSuffixes(w.slice(0, -2));
        if (kept.length >= 3) out.add(`${kept}${ending}`);
        // The word itself when light10 took more than the ending (استبيان → استب): its plural and nisba
        // keep the whole of it (استبيانات, استبياني → استبيان).
        if (kept.length < w.length - 2 && w.length - 2 >= 3) out.add(w);
      }
    }
  };
  const tens = TENS.get(word);
  if (tens) {
    out.add(tens);
    return;
  }
  add(word);
  // ة is written ت before the dual ending (موظفتان, المعلمتين: موظفة, معلمة).
  const dual = /^(.{2,})ت(ان|ين)$/.exec(word);
  if (dual && !isProtected(word)) add(`${dual[1]}ه`);
  for (const pronoun of PRONOUNS) {
    if (!word.endsWith(pronoun) || word.length - pronoun.length < (AFTER_TWO.has(pronoun) ? 2 : 3)) continue;
    const base = word.slice(0, -pronoun.length);
    add(base);
    // ة is written ت before a pronoun (جامعتنا is جامعة + نا), and ى is written ا (مبناكم: مبنى + كم), in a
    // word of three letters at least (حاكم is not حى + كم).
    if (base.length >= 3 && base.endsWith('ت') && !base.endsWith('ات')) add(`${base.slice(0, -1)}ه`);
    if (base.length >= 3 && base.endsWith('ا')) add(`${base.slice(0, -1)}ي`);
    break;
  }
}

/**
 * The stems of one normalised Arabic word (after foldArabicWord), light10's first: a leading و or ف may be
 * a conjunction or the word's own letter, a leading ب، ل or ك a preposition or not, a leading س the future
 * or not; each guess is a stem of its own. A stem keeps two letters (three when it lost a guessed part).
 */
export function arabicStems(word: string): string[] {
  const stems = new Set<string>();
  const withoutArticle = (w: string) => {
    for (const article of ARTICLES) {
      if (w.startsWith(article) && w.length - article.length >= 2) return w.slice(article.length);
    }
    return null;
  };
  /**
   * The word after its prefixes. A stem guessed past a conjunction ف or the future سـ keeps three letters
   * (فقرة is not ف + قرية's stem); past a one-letter preposition two, as light10's (بخطة is ب + خطة).
   */
  const forms: { text: string; guess: boolean }[] = [];
  // Whether a final alef may be the accusative tanween's (تنفيذاً، علماً، يوماً): the word without it is a
  // guess. Not after ا، و، ي or ه, where it is the word's own or a pronoun's (دنيا، عليا، قاموا، منها).
  const tanween = (w: string) => /[^اويه]ا$/.test(w) && w.length >= 4;
  const ownFirst = (w: string) => OWN_FIRST.has(w) || OWN_FIRST.has(stripSuffixes(w));
  const conjunctionless =
    /^[وف]/.test(word) && word.length > 3 && !(word.startsWith('ف') && ownFirst(word)) ? word.slice(1) : null;
  // light10 takes a leading و for the conjunction; ف is only a guess.
  const first = word.startsWith('و') && conjunctionless ? conjunctionless : word;
  const starts = [
    { text: first, guess: false },
    { text: word, guess: false },
    ...(conjunctionless && conjunctionless !== first ? [{ text: conjunctionless, guess: true }] : []),
  ];
  for (const { text: w, guess } of starts) {
    const bare = withoutArticle(w);
    if (bare !== null) {
      forms.push({ text: bare, guess });
      // A word whose own first letters are ال (إلغاء, ألماني, التزام) is stemmed without them, as the
      // article; after the article it is too (الإلغاء, الالتزام: إلغاء, التزام).
      if (bare.startsWith('ال') && bare.length >= 4) forms.push({ text: bare.slice(2), guess });
      // The tanween alef after an ال that was the word's own (إلحاقاً, التزاماً).
      if (tanween(bare)) forms.push({ text: bare.slice(0, -1), guess: true });
      // لل is ل and the article, or ل before a word that begins with ل (للجنة: ل + لجنة).
      if (w.startsWith('لل') && w.length >= 5) forms.push({ text: w.slice(1), guess });
      continue;
    }
    forms.push({ text: w, guess });
    if (tanween(w)) forms.push({ text: w.slice(0, -1), guess: true });
    // A one-letter preposition before a word without the article: بمذكرة، لمدير، بعقد…
    if (/^[بلك]/.test(w) && w.length >= 4) forms.push({ text: w.slice(1), guess });
    // The future before an imperfect verb (سنرفع، سيتم), never before a noun's ending (سياسة، سيارات).
    if (/^س[يتنا]/.test(w) && w.length >= 4 && !/(ه|ات)$/.test(w) && !ownFirst(w) && !TENS.has(w))
      forms.push({ text: w.slice(1), guess: true });
  }
  for (const { text, guess } of forms) {
    const own = new Set<string>();
    suffixStems(text, own);
    for (const stem of own) if (stem.length >= (guess ? 3 : 2)) stems.add(stem);
  }
  return [...stems];
}
