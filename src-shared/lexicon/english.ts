/**
 * English words as correspondence writes them, before the Porter stemmer: British spellings folded to
 * the American ones (organisation and organization, colour and color, centre and center are one word),
 * and irregular plurals to their singular (children → child), which suffix stripping cannot reach.
 * Both sides of search go through it (src-shared/search.ts), so only consistency matters: a folding that
 * makes a rare word look like another spelling harms nothing as long as no two meanings meet.
 */

/**
 * A table of words as a Map: a word typed is looked up in it, and a plain object would also answer the
 * names of Object's prototype (constructor, toString, __proto__) with functions.
 */
const table = (entries: Record<string, string>): ReadonlyMap<string, string> =>
  new Map(Object.entries(entries));

/**
 * Irregular plurals (and a few other irregular forms, and the abbreviations of letters) of correspondence,
 * to the word they stand for.
 */
const IRREGULAR: ReadonlyMap<string, string> = table({
  children: 'child',
  men: 'man',
  women: 'woman',
  people: 'person',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  analyses: 'analysis',
  crises: 'crisis',
  theses: 'thesis',
  hypotheses: 'hypothesis',
  diagnoses: 'diagnosis',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  indices: 'index',
  appendices: 'appendix',
  matrices: 'matrix',
  vertices: 'vertex',
  // Not leaves: the plural of a leave (a holiday) far more often than of a leaf.
  lives: 'life',
  wives: 'wife',
  knives: 'knife',
  halves: 'half',
  shelves: 'shelf',
  thieves: 'thief',
  selves: 'self',
  wolves: 'wolf',
  loaves: 'loaf',
  calves: 'calf',
  bureaux: 'bureau',
  syllabi: 'syllabus',
  curricula: 'curriculum',
  memoranda: 'memorandum',
  // Verbs people search by in any tense.
  went: 'go',
  gone: 'go',
  sent: 'send',
  paid: 'pay',
  made: 'make',
  held: 'hold',
  brought: 'bring',
  bought: 'buy',
  taught: 'teach',
  thought: 'think',
  written: 'write',
  wrote: 'write',
  given: 'give',
  gave: 'give',
  taken: 'take',
  took: 'take',
  chosen: 'choose',
  chose: 'choose',
  began: 'begin',
  begun: 'begin',
  sold: 'sell',
  built: 'build',
  spent: 'spend',
  told: 'tell',
  kept: 'keep',
  lost: 'lose',
  sought: 'seek',
  understood: 'understand',
  known: 'know',
  knew: 'know',
  shown: 'show',
  drawn: 'draw',
  drew: 'draw',
  withdrawn: 'withdraw',
  withdrew: 'withdraw',
  // Abbreviations of letters and memos.
  dept: 'department',
  depts: 'departments',
  govt: 'government',
  mgmt: 'management',
  mgr: 'manager',
  acct: 'account',
  qty: 'quantity',
  amt: 'amount',
  ref: 'reference',
  encl: 'enclosure',
  attn: 'attention',
  approx: 'approximately',
});

/** British spellings that no rule below reaches, to the American. */
const BRITISH: ReadonlyMap<string, string> = table({
  programme: 'program',
  programmes: 'programs',
  cheque: 'check',
  cheques: 'checks',
  grey: 'gray',
  tyre: 'tire',
  tyres: 'tires',
  aluminium: 'aluminum',
  judgement: 'judgment',
  judgements: 'judgments',
  acknowledgement: 'acknowledgment',
  acknowledgements: 'acknowledgments',
  ageing: 'aging',
  enrolment: 'enrollment',
  enrol: 'enroll',
  fulfil: 'fulfill',
  fulfilment: 'fulfillment',
  instalment: 'installment',
  skilful: 'skillful',
  defence: 'defense',
  licence: 'license',
  licences: 'licenses',
  offence: 'offense',
  offences: 'offenses',
  pretence: 'pretense',
  practise: 'practice',
  practised: 'practiced',
  analyse: 'analyze',
  analysed: 'analyzed',
  analysing: 'analyzing',
  paralyse: 'paralyze',
  catalogue: 'catalog',
  catalogues: 'catalogs',
  dialogue: 'dialog',
  analogue: 'analog',
  prologue: 'prolog',
  manoeuvre: 'maneuver',
  oestrogen: 'estrogen',
  paediatric: 'pediatric',
  encyclopaedia: 'encyclopedia',
  mould: 'mold',
  plough: 'plow',
  draught: 'draft',
  storey: 'story',
  kerb: 'curb',
  whilst: 'while',
  amongst: 'among',
  jewellery: 'jewelry',
  sceptic: 'skeptic',
  sceptics: 'skeptics',
  sceptical: 'skeptical',
  scepticism: 'skepticism',
  aeroplane: 'airplane',
  aeroplanes: 'airplanes',
});

/**
 * Words the Porter stemmer cuts to the stem of a word of another meaning (news and new → new, business and
 * busy → busi, university and universe → univers, department and depart → depart, international and
 * internal → intern, organization and organ → organ, engineering and engine → engin), by the stem they
 * keep instead: a short list, as the Arabic one of protected words.
 * Their regular inflections keep it too (universities, departments, generally: see ownStem).
 */
const OWN_STEMS: ReadonlyMap<string, string> = table({
  news: 'news',
  business: 'business',
  university: 'university',
  community: 'community',
  international: 'international',
  experiment: 'experiment',
  experimental: 'experiment',
  experimentation: 'experiment',
  general: 'general',
  generous: 'generous',
  authority: 'authority',
  department: 'department',
  departmental: 'department',
  // organ, organs, organic keep Porter's organ.
  organize: 'organize',
  organization: 'organize',
  organizational: 'organize',
  organizer: 'organize',
  engineer: 'engineer',
  engineering: 'engineer',
});

/** The stem of OWN_STEMS for a Latin word (lower case) or one of its regular inflections, else null. */
export function ownStem(word: string): string | null {
  const bases = [
    word,
    word.replace(/ie[sd]$/, 'y'),
    word.replace(/(?<=ss)es$/, ''),
    word.replace(/s$/, ''),
    word.replace(/(ed|ing|ly)$/, ''),
    word.replace(/(ed|ing)$/, 'e'),
  ];
  for (const base of bases) {
    const own = OWN_STEMS.get(base);
    if (own) return own;
  }
  return null;
}

/** Verbs whose l is doubled in British inflections (travelled, cancelled), and only those. */
const DOUBLED_L =
  /^(travel|cancel|label|model|level|signal|fuel|total|channel|counsel|dial|jewel|marshal|equal|panel|tunnel|quarrel|shovel|rival|pedal|initial)l(ed|ing|er|ers|or|ors)$/;

/** A Latin word (lower case) in the spelling the stemmer is given. */
export function englishForm(word: string): string {
  const known = IRREGULAR.get(word) ?? BRITISH.get(word);
  if (known) return known;
  let w = word;
  const doubled = DOUBLED_L.exec(w);
  if (doubled) return `${doubled[1]}${doubled[2]}`;
  // -isation/-ise… → -ization/-ize (organise, organisation, recognised, authorising).
  w = w.replace(/(?<=.{3})is(ation|ations|e|es|ed|ing|er|ers)$/, 'iz$1');
  // -our → -or where a stem of three letters or more stands before it (colour, behaviour; not four, hour).
  w = w.replace(/(?<=.{3})our(s|ed|ing|able|ite|ites|ful)?$/, 'or$1');
  // -tre/-bre/-gre → -ter/-ber/-ger (centre, metre, fibre, meagre; not genre, acre).
  w = w.replace(/(?<=..)(t|b|g)re(s|d)?$/, '$1er$2');
  return w;
}

/**
 * Compound words of correspondence that are written joined, hyphenated and as two words (followup,
 * follow-up, follow up; e-mail, email, e mail), in their joined form. Two words of text standing one after
 * the other whose joined form is here (the first word's stem, so "followed up" and "setting up" too; a
 * plural -s of the second word allowed: "work shops") are also the compound, and two such words typed in a
 * query ask for the compound, however the text wrote it. A closed list rather than every pair of words:
 * joining any two words would make unrelated pairs meet ("in put" is not "input", "on going" rarely
 * "ongoing"), and an index of every pair would double its size.
 */
const COMPOUNDS: ReadonlySet<string> = new Set([
  'backup',
  'breakdown',
  'bylaw',
  'checkin',
  'checklist',
  'checkout',
  'cutoff',
  'database',
  'dataset',
  'deadline',
  'dropoff',
  'email',
  'feedback',
  'filename',
  'followup',
  'framework',
  'guideline',
  'handout',
  'handover',
  'hardcopy',
  'headcount',
  'headquarter',
  'headquarters',
  'healthcare',
  'keyword',
  'layout',
  'letterhead',
  'lifecycle',
  'login',
  'logon',
  'logout',
  'marketplace',
  'network',
  'nonprofit',
  'offline',
  'offsite',
  'online',
  'onsite',
  'overtime',
  'overview',
  'password',
  'payroll',
  'percent',
  'pickup',
  'printout',
  'rollout',
  'setup',
  'signoff',
  'softcopy',
  'stakeholder',
  'startup',
  'subcontractor',
  'takeover',
  'timeframe',
  'timeline',
  'timesheet',
  'timetable',
  'turnaround',
  'turnover',
  'underway',
  'username',
  'webpage',
  'website',
  'weekend',
  'workflow',
  'workload',
  'workplace',
  'workshop',
  'worksheet',
  'wrapup',
  'yearend',
]);

/**
 * The joined form of two Latin words (lower case) standing one after the other when they are one of the
 * COMPOUNDS, else null: the first word as written or as its stem (its inflection dropped: followed,
 * setting, logged), the second as written or without a plural -s.
 */
export function compoundOf(first: string, second: string, stem: (word: string) => string): string | null {
  for (const head of new Set([first, stem(englishForm(first))])) {
    const joined = head + second;
    if (COMPOUNDS.has(joined)) return joined;
    if (second.endsWith('s') && COMPOUNDS.has(joined.slice(0, -1))) return joined;
  }
  return null;
}
