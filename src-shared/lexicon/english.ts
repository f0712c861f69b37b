/**
 * English words as correspondence writes them, before the Porter stemmer: British spellings folded to
 * the American ones (organisation and organization, colour and color, centre and center are one word),
 * and irregular plurals to their singular (children → child), which suffix stripping cannot reach.
 * Both sides of search go through it (src-shared/search.ts), so only consistency matters: a folding that
 * makes a rare word look like another spelling harms nothing as long as no two meanings meet.
 */

/** Irregular plurals (and a few other irregular forms) of correspondence, to the word they inflect. */
const IRREGULAR: Readonly<Record<string, string>> = {
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
};

/** British spellings that no rule below reaches, to the American. */
const BRITISH: Readonly<Record<string, string>> = {
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
};

/** Verbs whose l is doubled in British inflections (travelled, cancelled), and only those. */
const DOUBLED_L =
  /^(travel|cancel|label|model|level|signal|fuel|total|channel|counsel|dial|jewel|marshal|equal|panel|tunnel|quarrel|shovel|rival|pedal|initial)l(ed|ing|er|ers|or|ors)$/;

/** A Latin word (lower case) in the spelling the stemmer is given. */
export function englishForm(word: string): string {
  const known = IRREGULAR[word] ?? BRITISH[word];
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
