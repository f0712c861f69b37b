/**
 * The families of words search must find as clerks type them (issue 25), each as a table of cases from
 * real correspondence — ministry letters, circulars, memos — that must match and that must not. A case is
 * a text as written in a document and a query as typed; it matches when every group of the query meets a
 * lexeme of the text, the rule the database applies (src-shared/search.ts).
 */
import { describe, expect, it } from 'vitest';
import { ignoredWords, indexText, matchRanges, queryParts, queryTerms } from '../../src-shared/search';

function finds(text: string, query: string): boolean {
  const indexed = new Set(indexText(text).split(' '));
  const terms = queryTerms(query);
  return terms.length > 0 && terms.every((group) => group.some((l) => indexed.has(l)));
}

/** [text as written, query as typed] */
type Case = [string, string];

function family(name: string, match: Case[], noMatch: Case[]) {
  describe(name, () => {
    it.each(match)('«%s» is found by «%s»', (text, query) => {
      expect(finds(text, query)).toBe(true);
    });
    if (noMatch.length)
      it.each(noMatch)('«%s» is not found by «%s»', (text, query) => {
        expect(finds(text, query)).toBe(false);
      });
  });
}

family(
  'attached pronouns, and ة written ت before them',
  [
    ['نحيطكم علماً بأن جامعتنا ستستضيف المؤتمر', 'جامعة'],
    ['نرجو من سيادتكم التكرم بالموافقة', 'سيادة'],
    ['بالإشارة إلى خطابكم رقم 15', 'خطاب'],
    ['تم استلام رسالتكم المؤرخة', 'رسالة'],
    ['نفيد مديركم بأن الاجتماع تأجل', 'مدير'],
    ['اطلعنا على تقريرهم السنوي', 'تقرير'],
    ['وفق تعليماتهن الصادرة', 'تعليمات'],
    ['تنفيذاً لقرارهما المشترك', 'قرار'],
    ['بخصوص طلبكما المقدم', 'طلب'],
    ['نشكر لكم تعاونكم', 'تعاون'],
    ['وزارتنا', 'الوزارة'],
    ['مؤسستهم', 'مؤسسة'],
    ['الجامعة', 'جامعتنا'],
  ],
  [
    ['أسهم الشركة', 'أس'],
    ['الأمر المهم', 'مه'],
    ['فهم الموضوع', 'فه'],
  ],
);

family(
  'the conjunction ف and the future سـ before a verb',
  [
    ['فيفيد المكتب بأن الملف مكتمل', 'يفيد'],
    ['سنرفع الأمر إلى اللجنة', 'نرفع'],
    ['وسنرفع التوصيات', 'نرفع'],
    ['فنأمل التكرم بالاطلاع', 'نأمل'],
    ['سيتم عقد الاجتماع غداً', 'يتم'],
    ['ستقوم الإدارة بالتنفيذ', 'تقوم'],
    ['فيرجى الإفادة', 'يرجى'],
  ],
  [
    ['السياسة العامة', 'يأس'],
    ['سيارات الإدارة', 'يارات'],
    ['فرع الرياض', 'رع'],
  ],
);

family(
  'an ending ان، ون، ين that the forms of one word keep or lose alike',
  [
    ['البرلمان', 'البرلمانات'],
    ['البرلمانات العربية', 'برلمان'],
    ['النائب البرلماني', 'برلمان'],
    ['الموظفان المذكوران', 'موظف'],
    ['الموظفين', 'الموظفان'],
    ['المعلمون', 'معلم'],
    ['القانون رقم 5', 'القانونية'],
    ['الشؤون القانونية', 'قانون'],
    ['السفارة اللبنانية', 'لبنان'],
  ],
  [
    ['جمهورية لبنان', 'لبن'],
    ['سلطنة عمان', 'عم'],
    ['الميدان', 'ميد'],
  ],
);

family(
  'hamza however it is seated',
  [
    ['مسؤولية الإدارة', 'مسئولية'],
    ['مسئولية الإدارة', 'مسؤولية'],
    ['مسؤولية الإدارة', 'مسوولية'],
    ['مسوولية', 'مسؤولية'],
    ['مسءولية', 'مسؤولية'],
    ['رئيس القسم', 'رييس'],
    ['الهيئة العامة', 'هيئه'],
    ['إنشاء المبنى', 'انشائه'],
    ['شؤون الموظفين', 'شئون'],
    ['البيئة', 'بيئه'],
  ],
  [['مسؤولية', 'مسألة']],
);

family(
  'letters of other keyboards and text pasted from a PDF',
  [
    ['هيئة الرقابة', 'ھيئة'],
    ['مدرسة', 'مدرسۃ'],
    ['مديرية الصحة', 'مديرية الصحە'],
    ['كتاب', 'ڪتاب'],
    ['مسؤولية', 'ﻣﺴﺆﻭﻟﻴﺔ'],
    ['الإدارة', 'ﺍﻹﺩﺍﺭﺓ'],
    ['فيزا', 'ڤيزا'],
    ['Office', 'Ｏｆｆｉｃｅ'],
  ],
  [],
);

family(
  'numbers as people type them',
  [
    ['الخطاب رقم IN-2026-000123', '123'],
    ['الخطاب رقم IN-2026-000123', '2026-123'],
    ['الخطاب رقم IN-2026-000123', '000123/2026'],
    ['الخطاب رقم IN-2026-000123', 'IN-2026-000123'],
    ['الخطاب رقم IN-2026-000123', '٢٠٢٦-١٢٣'],
    ['بمبلغ ١٢٬٥٠٠ ريال', '12500'],
    ['an amount of 12,500', '12500'],
    ['بمبلغ 12500 ريال', '١٢٬٥٠٠'],
    ['التعميم رقم 0045', '45'],
  ],
  [
    ['الخطاب رقم IN-2026-000123', '124'],
    ['بمبلغ 12500', '125'],
  ],
);

family(
  'English as it is written',
  [
    ['The IT department requests new laptops', 'IT'],
    ['US embassy', 'US'],
    ['The organisation of the archive', 'organization'],
    ['The organization chart', 'organisation'],
    ['colour printing', 'color'],
    ['the city centre branch', 'center'],
    ['Programme of the visit', 'program'],
    ['licence renewal', 'license'],
    ['travelled abroad', 'traveled'],
    ['catalogue of services', 'catalog'],
    ['send an e-mail', 'email'],
    ['by email', 'e-mail'],
    ['follow-up of the case', 'followup'],
    ['children allowance', 'child'],
    ['analyses of the budget', 'analysis'],
    ['criteria for selection', 'criterion'],
  ],
  [
    ['four hours', 'for'],
    ['the filed report', 'filled'],
  ],
);

family(
  'English compounds written joined, hyphenated or as two words',
  [
    ['Please follow up on the attached letter', 'followup'],
    ['Please follow up on the attached letter', 'follow-up'],
    ['The followup of the audit findings', 'follow up'],
    ['A follow-up meeting is scheduled', 'follow up'],
    ['The department followed up with the ministry', 'follow up'],
    ['Setting up the new registry', 'setup'],
    ['Log in to the portal with your account', 'login'],
    ['The login page of the portal', 'log in'],
    ['Send the scanned copy by e mail', 'email'],
    ['Two work shops for the archive staff', 'workshop'],
    ['The new guide lines for correspondence', 'guidelines'],
    ['The weekend duty roster', 'week end'],
    ['The ministry web site', 'website'],
    ['A hand over of the files', 'handover'],
  ],
  [
    // Not across a full stop, nor when other words stand between them.
    ['We will follow. Up to ten copies', 'followup'],
    ['Please follow the steps up to the end', 'follow up'],
    // A pair that is not a known compound stays two words.
    ['The input of the committee', 'in put'],
  ],
);

describe('English compounds marked and counted', () => {
  const marked = (text: string, query: string) => {
    const { terms, runs } = queryParts(query);
    return matchRanges(text, terms, runs).map(([s, e]) => text.slice(s, e));
  };
  it('marks both words of a compound written as two, in the order of the text', () => {
    expect(marked('Please follow up on the followup', 'followup')).toEqual(['follow', 'up', 'followup']);
    expect(marked('Please follow up on the followup', 'follow up')).toEqual(['follow', 'up', 'followup']);
  });
  it('a compound typed as two words is one term, and neither word is said to be left out', () => {
    expect(queryParts('log in budget').words).toEqual(['log in', 'budget']);
    expect(ignoredWords('log in to the portal')).toEqual(['to', 'the']);
  });
});

describe('common words', () => {
  it('a query of common words only is searched by them', () => {
    expect(queryTerms('IT')).toEqual([['it']]);
    expect(queryTerms('it')).toEqual([['it']]);
  });
  it('says which words were left out as too common', () => {
    expect(ignoredWords('the budget of the ministry')).toEqual(['the', 'of', 'the']);
    expect(ignoredWords('في الميزانية')).toEqual(['في']);
    expect(ignoredWords('the')).toEqual([]);
  });
});

describe('marking a number typed in parts', () => {
  const marked = (text: string, query: string) => {
    const { terms, runs } = queryParts(query);
    return matchRanges(text, terms, runs).map(([s, e]) => text.slice(s, e));
  };
  const text = 'الخطاب رقم IN-2026-000123 المؤرخ 2026/03/01 بشأن ميزانية عام 2026، والمرجع 000123/2026';
  it('marks the number where its parts stand together, not every year on the page', () => {
    expect(marked(text, 'IN-2026-000123')).toEqual(['IN-2026-000123', '000123', '2026']);
    expect(marked(text, '2026-123')).toEqual(['IN-2026-000123', '000123', '2026']);
  });
  it('marks a year typed alone wherever it is, and a word of the query beside the number anywhere', () => {
    expect(marked(text, '2026')).toEqual(['IN-2026-000123', '2026', '2026', '2026']);
    expect(marked(text, 'ميزانية 123/2026')).toEqual(['IN-2026-000123', 'ميزانية', '000123', '2026']);
  });
});
