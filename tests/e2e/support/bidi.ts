/**
 * Finds text of two directions drawn in the wrong order, the way a reader would: for every visible run of
 * the page that must read left to right (a number, a phone number, a registration number, a date, a path,
 * a file name, a Latin phrase) or right to left (an Arabic phrase), the boxes Chromium drew its characters
 * in (Range.getClientRects) must follow its logical order along its direction, and a value that is one
 * token (a number, a date, a path) must not be broken across lines. It also finds a text cut with an
 * ellipsis whose beginning is the part cut away (an Arabic subject in an English cell cut from its start).
 */
import type { Page } from '@playwright/test';

/** What reads wrong on the page now, one sentence each (with the test id of the nearest marked element). */
export async function bidiProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    // Values that are one token and read left to right in every language.
    const TOKENS: [string, RegExp][] = [
      ['phone number', /\+?\d[\d ]{6,}\d/g],
      ['registration number', /[A-Z]{1,6}-\d{4}-\d+(?:[_ ]\d+)?(?:\.[a-z]{3,4})?/g],
      ['path', /(?:\/[A-Za-z0-9_.-]+)+\/?|[A-Za-z0-9_.-]+\/(?:[A-Za-z0-9_.-]+\/?)*/g],
      ['file name', /[\w-]+\.(?:pdf|txt|docx?|png|jpe?g)\b/gi],
      ['date', /\d{1,2}\/\d{1,2}\/\d{2,4}(?: \d{1,2}:\d{2})?/g],
    ];
    const LATIN = /[A-Za-z][A-Za-z0-9@._'-]*(?: [A-Za-z0-9][A-Za-z0-9@._'-]*)*/g;
    const ARABIC =
      /[\u0621-\u064A\u066E-\u06D3][\u0600-\u06FF]*(?: [\u0621-\u064A\u066E-\u06D3][\u0600-\u06FF]*)*/g;
    const visible = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
      }
      return el.getClientRects().length > 0;
    };
    /** The drawn box of each character (spaces and Arabic marks have none of their own). */
    const boxes = (node: Text, start: number, end: number) => {
      const out: { x: number; top: number; height: number }[] = [];
      for (let i = start; i < end; i++) {
        if (/[\s\u064B-\u065F\u0670]/.test(node.data[i]!)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const b = range.getClientRects()[0];
        if (b && b.width > 0) out.push({ x: b.left + b.width / 2, top: b.top, height: b.height });
      }
      return out;
    };
    const where = (el: Element | null) => el?.closest('[data-testid]')?.getAttribute('data-testid') ?? 'page';
    const check = (node: Text, match: RegExpMatchArray, kind: string, ltr: boolean, whole: boolean) => {
      const b = boxes(node, match.index!, match.index! + match[0].length);
      for (let k = 1; k < b.length; k++) {
        const a = b[k - 1]!;
        const c = b[k]!;
        const sameLine = Math.abs(a.top - c.top) < Math.min(a.height, c.height) / 2;
        if (sameLine ? (ltr ? c.x < a.x - 1 : c.x > a.x + 1) : c.top < a.top) {
          problems.push(`${where(node.parentElement)}: ${kind} "${match[0]}" reads in the wrong order`);
          return;
        }
        if (!sameLine && whole) {
          problems.push(`${where(node.parentElement)}: ${kind} "${match[0]}" is broken across lines`);
          return;
        }
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const el = node.parentElement;
      if (!el || !node.data.trim()) continue;
      if (el.closest('script, style, textarea, input, [aria-hidden="true"], .ant-table-measure-row'))
        continue;
      if (!visible(el)) continue;
      for (const [kind, re] of TOKENS)
        for (const m of node.data.matchAll(re)) check(node, m, kind, true, true);
      for (const m of node.data.matchAll(LATIN)) check(node, m, 'Latin text', true, false);
      for (const m of node.data.matchAll(ARABIC)) check(node, m, 'Arabic text', false, false);
    }
    // A text cut short shows its beginning: its first letter is inside the box that cuts it.
    for (const el of document.querySelectorAll('*')) {
      const s = getComputedStyle(el);
      if (s.textOverflow !== 'ellipsis' || s.overflowX === 'visible') continue;
      if (el.scrollWidth <= el.clientWidth + 1 || !visible(el)) continue;
      const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let first = texts.nextNode() as Text | null;
      while (first && !first.data.trim()) first = texts.nextNode() as Text | null;
      if (!first) continue;
      const i = first.data.search(/\S/);
      const b = boxes(first, i, i + 1)[0];
      const box = el.getBoundingClientRect();
      if (b && (b.x < box.left - 1 || b.x > box.right + 1))
        problems.push(`${where(el)}: "${(el.textContent ?? '').slice(0, 40)}" is cut at its beginning`);
    }
    return [...new Set(problems)];
  });
}
