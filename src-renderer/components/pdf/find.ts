/**
 * Find in the viewer, as the server searches: each page's text read in logical order by the server's own
 * layout (src-shared/text-layout.ts) and normalised by the server's own rules (src-shared/arabic.ts:
 * presentation forms folded, hamza, ta marbuta, alef maqsura, diacritics, tatweel, digits, case), then
 * the normalised query looked for in it.
 *
 * pdf.js's PDFFindController cannot do this: it matches over the page's text items joined in the order
 * they are stored, and many producers (Chromium's print-to-PDF among them) store Arabic glyph by glyph from
 * left to right, in presentation forms, with a few letters of two neighbouring words joined in one item —
 * so a word is neither in order nor in one piece there, and its normalisation is not ours. This class
 * stands in for it where pdf.js's viewer asks (`PDFViewer({ findController })`, whose TextHighlighter reads
 * `pageMatches`, `pageMatchesLength`, `selected`, `state` and `highlightMatches` and calls
 * `scrollMatchIntoView`): a match is handed to the highlighter as the runs of the text layer's characters
 * it was read from ("fragments", in text-layer order), so the highlight lands on the glyphs of the word
 * and nothing else, while counting and stepping go by words in reading order.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { normalizeArabic, normalizeArabicMapped } from '../../../src-shared/arabic';
import { layoutPageTextMapped } from '../../../src-shared/text-layout';
import { pageTextItems } from '../../../src-shared/pdf-ligatures';

/** The n-th match of how many (1-based), or null when nothing is being looked for. */
export type FindCount = { current: number; total: number } | null;

/** A page's text as find reads it. */
interface PageText {
  /** The page's text in logical order, normalised. */
  normalised: string;
  /** For each unit of `normalised`, the range of the logical text it stands for. */
  from: Int32Array;
  to: Int32Array;
  /** For each unit of the logical text, its offset in the text layer's strings joined, or -1. */
  src: readonly number[];
  /** Per offset of the text layer's strings: 1 when the logical text reads it (0: dropped as no text). */
  read: Uint8Array;
}

/**
 * The little of the DOM the finder touches, named here so that it runs (and is tested) under Node too: a
 * box on the screen, the highlighted elements of a text layer, the scrolling container.
 */
interface Box {
  getBoundingClientRect(): {
    top: number;
    bottom: number;
    left: number;
    right: number;
    width: number;
    height: number;
  };
}
interface Highlight {
  classList: { contains(name: string): boolean; add(name: string): void };
}
interface Drawn extends Box {
  closest(selector: string): { querySelectorAll(selector: string): Iterable<Highlight> } | null;
}

/** What the finder needs of the viewer around it. */
export interface PageFinderHost {
  /** pdf.js's event bus: `updatetextlayermatches` redraws the highlights of a page (-1: every page). */
  eventBus: { dispatch(name: string, data: object): void };
  /** The page in view (1-based), where a new search starts. */
  currentPage(): number;
  /** Scrolls a page (1-based) into view. */
  showPage(pageNumber: number): void;
  /** The viewer's scrolling container. */
  container: Box & { scrollTop: number; scrollLeft: number };
  /** Called whenever the count changes. */
  onCount(count: FindCount): void;
}

/** The page's text for find: its items laid out, normalised, with where every character came from. */
async function readPage(doc: PDFDocumentProxy, pageIndex: number): Promise<PageText> {
  const page = await doc.getPage(pageIndex + 1);
  // As the text layer reads it (pdf_page_view.js): unnormalised, so offsets are those of its strings;
  // ligature glyphs' letters put back in order, each within its item (src-shared/pdf-ligatures.ts).
  const items = await pageTextItems(
    page,
    (item): item is TextItem => typeof item === 'object' && item !== null && 'str' in item,
  );
  const logical = layoutPageTextMapped(items);
  const normalised = normalizeArabicMapped(logical.text);
  const read = new Uint8Array(items.reduce((n, item) => n + item.str.length, 0));
  for (const offset of logical.src) if (offset >= 0) read[offset] = 1;
  return { normalised: normalised.text, from: normalised.from, to: normalised.to, src: logical.src, read };
}

/**
 * The runs of the text layer's characters that a match read, in text-layer order. Characters the layout
 * dropped (spaces of no width, unmapped glyphs) do not part a run; anything else between does.
 */
function fragmentsOf(text: PageText, start: number, end: number): [number, number][] {
  const offsets = new Set<number>();
  for (let k = text.from[start]!; k < text.to[end - 1]!; k += 1) {
    const offset = text.src[k]!;
    if (offset >= 0) offsets.add(offset);
  }
  const sorted = [...offsets].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const offset of sorted) {
    const last = runs.at(-1);
    let joins = !!last;
    for (let k = last ? last[1] : 0; joins && k < offset; k += 1) if (text.read[k]) joins = false;
    if (last && joins) last[1] = offset + 1;
    else runs.push([offset, offset + 1]);
  }
  return runs;
}

/** pdf.js's find controller for our viewer: find as the server searches (see the top of this file). */
export class PageFinder {
  // What pdf.js's PDFViewer and TextHighlighter read of a find controller.
  onIsPageVisible: ((pageNumber: number) => boolean) | null = null;
  highlightMatches = false;
  pageMatches: number[][] = [];
  pageMatchesLength: number[][] = [];
  /** The current match as the highlighter knows it: its page and its first fragment there. */
  selected = { pageIdx: -1, matchIdx: -1 };
  readonly state = { highlightAll: true };

  private doc: PDFDocumentProxy | null = null;
  private texts: (Promise<PageText> | undefined)[] = [];
  /** Per page, per match (reading order): the indices of its fragments in `pageMatches[page]`. */
  private matches: number[][][] = [];
  private query = '';
  /** The query as typed last (looked for again when pdf.js hands the document over after it). */
  private typed = '';
  /** Bumped by every new search and document: work for an older one stops. */
  private generation = 0;
  private current = { page: -1, match: -1 };
  private scrollPending = false;

  constructor(private readonly host: PageFinderHost) {}

  /**
   * pdf.js's viewer hands its document over once the first page is drawn (and null when it lets it go);
   * what was typed before then is looked for now.
   */
  setDocument(doc: PDFDocumentProxy | null): void {
    this.doc = doc;
    this.texts = [];
    this.reset('');
    if (doc && this.typed.trim()) void this.find(this.typed);
  }

  /** Looks for `query` (as typed) from the page in view on; an empty query ends the search. */
  async find(query: string): Promise<void> {
    this.typed = query;
    this.reset(normalizeArabic(query));
    this.redraw(-1);
    const doc = this.doc;
    if (!this.query || !doc) {
      this.host.onCount(null);
      return;
    }
    const generation = this.generation;
    const first = Math.min(Math.max(this.host.currentPage(), 1), doc.numPages) - 1;
    for (let k = 0; k < doc.numPages; k += 1) {
      const page = (first + k) % doc.numPages;
      const text = await this.pageText(doc, page);
      if (generation !== this.generation) return;
      this.matchPage(page, text);
      if (this.current.page < 0 && this.matches[page]!.length > 0) this.select(page, 0);
      this.report();
    }
  }

  /**
   * The matches found on a page, in reading order, each as the indices of its fragments in
   * `pageMatches[pageIndex]` / `pageMatchesLength[pageIndex]` (offsets into the page's text-layer strings).
   */
  matchesOn(pageIndex: number): readonly (readonly number[])[] {
    return this.matches[pageIndex] ?? [];
  }

  /**
   * Enter in the find box: the next match (or the previous one), or a search for `query` when it is not
   * the one looked for yet (typed, and Enter pressed before the search started).
   */
  next(query: string, previous = false): void {
    if (normalizeArabic(query) !== this.query) void this.find(query);
    else this.step(previous);
  }

  /** The next match (or the previous one), from the current match, or from the page in view. */
  step(previous = false): void {
    const doc = this.doc;
    if (!doc || !this.query) return;
    const pages = doc.numPages;
    const count = (page: number) => this.matches[page]?.length ?? 0;
    let { page, match } = this.current;
    if (page < 0 || this.onIsPageVisible?.(page + 1) === false) {
      // The user has gone elsewhere since: the first match from the page in view.
      const here = Math.min(Math.max(this.host.currentPage(), 1), pages) - 1;
      for (let k = 0; k < pages; k += 1) {
        const p = (here + (previous ? pages - k : k)) % pages;
        if (count(p) > 0) return this.select(p, previous ? count(p) - 1 : 0);
      }
      return;
    }
    match += previous ? -1 : 1;
    for (let k = 0; k <= pages && (match < 0 || match >= count(page)); k += 1) {
      page = (page + (previous ? pages - 1 : 1)) % pages;
      match = previous ? count(page) - 1 : 0;
    }
    if (match >= 0 && match < count(page)) this.select(page, match);
  }

  /**
   * Called by pdf.js's highlighter as it draws the current match's first fragment: marks its other
   * fragments as current too, and scrolls it into view once after it was chosen.
   */
  scrollMatchIntoView({
    element,
    pageIndex,
    matchIndex,
  }: {
    element?: Drawn | null;
    pageIndex?: number;
    matchIndex?: number;
  }): void {
    if (!element || pageIndex !== this.selected.pageIdx || matchIndex !== this.selected.matchIdx) return;
    const fragments = this.matches[pageIndex]?.[this.current.match] ?? [];
    // After the highlighter's pass over the page: the highlight elements of each fragment, in order.
    queueMicrotask(() => {
      const layer = element.closest('.textLayer');
      if (!layer) return;
      const groups: Highlight[][] = [];
      for (const el of layer.querySelectorAll('.highlight')) {
        if (el.classList.contains('middle') || el.classList.contains('end')) groups.at(-1)?.push(el);
        else groups.push([el]);
      }
      for (const index of fragments) for (const el of groups[index] ?? []) el.classList.add('selected');
    });
    if (!this.scrollPending) return;
    this.scrollPending = false;
    const box = this.host.container.getBoundingClientRect();
    const at = element.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom)
      this.host.container.scrollTop += at.top - box.top - box.height / 3;
    if (at.left < box.left || at.right > box.right)
      this.host.container.scrollLeft += at.left + at.width / 2 - (box.left + box.width / 2);
  }

  private reset(query: string): void {
    this.generation += 1;
    this.query = query;
    this.highlightMatches = query.length > 0;
    this.pageMatches = [];
    this.pageMatchesLength = [];
    this.matches = [];
    this.current = { page: -1, match: -1 };
    this.selected = { pageIdx: -1, matchIdx: -1 };
    this.scrollPending = false;
  }

  private pageText(doc: PDFDocumentProxy, page: number): Promise<PageText> {
    this.texts[page] ??= readPage(doc, page).catch(() => ({
      normalised: '',
      from: new Int32Array(0),
      to: new Int32Array(0),
      src: [],
      read: new Uint8Array(0),
    }));
    return this.texts[page];
  }

  /** The matches of the query on a page: words in reading order, fragments in text-layer order. */
  private matchPage(page: number, text: PageText): void {
    const q = this.query;
    const fragments: { start: number; end: number; match: number }[] = [];
    let count = 0;
    for (let at = text.normalised.indexOf(q); at >= 0; at = text.normalised.indexOf(q, at + q.length)) {
      for (const [start, end] of fragmentsOf(text, at, at + q.length))
        fragments.push({ start, end, match: count });
      count += 1;
    }
    // The highlighter walks fragments in order and never back: sorted, and never overlapping.
    fragments.sort((a, b) => a.start - b.start);
    const kept: typeof fragments = [];
    for (const f of fragments) {
      const last = kept.at(-1);
      const start = last ? Math.max(f.start, last.end) : f.start;
      if (start < f.end) kept.push({ ...f, start });
    }
    this.pageMatches[page] = kept.map((f) => f.start);
    this.pageMatchesLength[page] = kept.map((f) => f.end - f.start);
    const byMatch: number[][] = Array.from({ length: count }, () => []);
    kept.forEach((f, index) => byMatch[f.match]!.push(index));
    this.matches[page] = byMatch.filter((list) => list.length > 0);
    this.redraw(page);
  }

  private select(page: number, match: number): void {
    const before = this.selected.pageIdx;
    this.current = { page, match };
    this.selected = { pageIdx: page, matchIdx: Math.min(...this.matches[page]![match]!) };
    this.scrollPending = true;
    if (this.onIsPageVisible?.(page + 1) === false) this.host.showPage(page + 1);
    if (before >= 0 && before !== page) this.redraw(before);
    this.redraw(page);
    this.report();
  }

  private redraw(pageIndex: number): void {
    this.host.eventBus.dispatch('updatetextlayermatches', { source: this, pageIndex });
  }

  private report(): void {
    let total = 0;
    let before = 0;
    this.matches.forEach((list, page) => {
      total += list?.length ?? 0;
      if (page < this.current.page) before += list?.length ?? 0;
    });
    this.host.onCount({ current: this.current.page < 0 ? 0 : before + this.current.match + 1, total });
  }
}
