/**
 * The public verification page (src-server/modules/final/verify-page.ts): both languages and every
 * outcome, escaping, no inline script or handler, and the headers the route sends.
 */
import { describe, expect, it } from 'vitest';
import {
  VERIFY_SCRIPT,
  escapeHtml,
  verifyHeaders,
  verifyPageCsp,
  verifyPageHtml,
  type VerifyLang,
  type VerifyOutcome,
} from '../../src-server/modules/final/verify-page';

const SHA = 'a3f5'.repeat(16);
const options = {
  token: 'tok_abc123',
  scriptNonce: 'bm9uY2Utb25lLXR3bw==',
  otherLangHref: '/verify/tok_abc123?lang=en',
  scriptSrc: '/verify/assets/verify.js',
  timeZone: 'Asia/Riyadh',
};

function found(extra: Partial<Extract<VerifyOutcome, { kind: 'found' }>> = {}): VerifyOutcome {
  return {
    kind: 'found',
    number: 'OUT-2026-000012',
    approvedAt: new Date('2026-11-27T09:00:00Z'),
    organisation: { ar: 'وزارة الاختبار', en: 'Ministry of Testing' },
    signatory: {
      nameAr: 'سالم أحمد',
      nameEn: 'Salem Ahmed',
      jobAr: 'المدير العام',
      jobEn: 'Director General',
    },
    sha256: SHA,
    signed: true,
    subject: null,
    cancelled: false,
    pages: 3,
    ...extra,
  };
}

const outcomes: Record<string, VerifyOutcome> = {
  found: found(),
  cancelled: found({ cancelled: true }),
  unsigned: found({ signed: false }),
  unknown: { kind: 'unknown' },
  tooMany: { kind: 'tooMany', retryAfterSeconds: 42 },
};

/** The page's visible text, roughly: tags dropped, entities of the escaper decoded. */
const textOf = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/[\u200e\u2066-\u2069]/g, '');

describe('verification page', () => {
  for (const lang of ['ar', 'en'] as const satisfies VerifyLang[]) {
    describe(lang, () => {
      for (const [name, outcome] of Object.entries(outcomes)) {
        it(`${name}: a whole document in the language, no inline script or handler`, () => {
          const html = verifyPageHtml(outcome, lang, options);
          expect(html.startsWith('<!doctype html>')).toBe(true);
          expect(html).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`);
          expect(html).toContain('<meta name="viewport"');
          expect(html).toContain(`<style nonce="${options.scriptNonce}">`);
          expect(html).toContain(`href="${options.otherLangHref}"`);
          // Every script has a src and the nonce; no on* attribute, no javascript: URL, no style attribute.
          const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
          expect(scripts).toEqual([
            `<script src="${options.scriptSrc}" nonce="${options.scriptNonce}" defer>`,
          ]);
          expect(html).not.toMatch(/<script>/);
          expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
          expect(html).not.toMatch(/javascript:/i);
          expect(html).not.toMatch(/\sstyle\s*=/i);
          // No external resource.
          expect(html).not.toMatch(/(src|href)="https?:/);
          // Physical directions have no place in the styles: logical properties only.
          const css = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)![1]!;
          expect(css).not.toMatch(
            /(margin|padding|border)-(left|right)|\b(left|right)\s*:|text-align\s*:\s*(left|right)/,
          );
          // No key leaked untranslated.
          expect(textOf(html)).not.toMatch(/\b(found|cancelled|compare|fields|values|unknown|tooMany)\.\w+/);
        });
      }

      it('found: verdict, number in the page digits, dates in both calendars, the facts', () => {
        const html = verifyPageHtml(outcomes.found!, lang, options);
        const text = textOf(html);
        expect(html).toContain('class="state-found"');
        if (lang === 'ar') {
          expect(text).toContain('صدر هذا الخطاب عن');
          expect(text).toContain('وزارة الاختبار');
          expect(text).toContain('OUT-٢٠٢٦-٠٠٠٠١٢');
          expect(text).not.toContain('2026');
          expect(text).toContain('سالم أحمد');
          expect(text).toContain('المدير العام');
          expect(text).toContain('١٧ جمادى الآخرة ١٤٤٨ هـ');
          expect(text).toContain('٢٧ نوفمبر ٢٠٢٦ م');
          expect(text).toMatch(/عدد الصفحات\s+٣/);
          expect(text).toContain('موقَّع رقمياً');
          // The number stays one left-to-right piece inside the Arabic page.
          expect(html).toMatch(/<bdi dir="ltr" class="number">OUT-٢٠٢٦\u200e-\u200e٠٠٠٠١٢<\/bdi>/);
        } else {
          expect(text).toContain('This letter was issued by');
          expect(text).toContain('Ministry of Testing');
          expect(text).toContain('OUT-2026-000012');
          expect(text).not.toMatch(/[٠-٩]/);
          expect(text).toContain('Salem Ahmed');
          expect(text).toContain('Director General');
          expect(text).toContain('17 Jumada II 1448 AH');
          expect(text).toContain('27 November 2026');
          expect(text).toMatch(/Number of pages\s+3/);
          expect(text).toContain('Digitally signed');
          // No Arabic letter but the name of the other language on its link.
          expect(text.replace('العربية', '')).not.toMatch(/[\u0600-\u06ff]/);
        }
        // The fingerprint, monospace and left to right, and the expected value for the script.
        expect(html).toContain(`<code class="hash" dir="ltr">${SHA}</code>`);
        expect(html).toContain(`data-expected="${SHA}"`);
        expect(html).toMatch(/<input type="file" id="compare-file"/);
        expect(html).toContain('<label for="compare-file" class="button">');
        expect(html).toMatch(/id="compare-result"[^>]*aria-live="polite"/);
        // No subject unless given; no cancellation.
        expect(text).not.toContain(lang === 'ar' ? 'الموضوع' : 'Subject');
        expect(html).not.toContain('data-msg-cancelled');
        expect(text).not.toContain(lang === 'ar' ? 'مُلغى' : 'CANCELLED');
        // The token is not repeated on the page.
        expect(html).not.toContain('tok_abc123"');
        expect(text).not.toContain('tok_abc123');
      });

      it('found with a subject shows it', () => {
        const text = textOf(verifyPageHtml(found({ subject: 'Annual budget — الميزانية' }), lang, options));
        expect(text).toContain(lang === 'ar' ? 'الموضوع' : 'Subject');
        expect(text).toContain('Annual budget — الميزانية');
      });

      it('cancelled: the headline says so, in its own style, and the script warns too', () => {
        const html = verifyPageHtml(outcomes.cancelled!, lang, options);
        const text = textOf(html);
        expect(html).toContain('class="state-cancelled"');
        expect(text).toContain(lang === 'ar' ? 'هذا الخطاب مُلغى' : 'This letter has been CANCELLED');
        expect(text).toContain(lang === 'ar' ? 'لا يجوز الاعتماد عليه' : 'must not be relied upon');
        expect(text).not.toContain(lang === 'ar' ? 'صدر هذا الخطاب عن وزارة' : 'This letter was issued by');
        expect(html).toContain('data-msg-cancelled=');
        expect(html).toContain(`data-expected="${SHA}"`);
      });

      it('unsigned: says plainly it is not digitally signed', () => {
        const text = textOf(verifyPageHtml(outcomes.unsigned!, lang, options));
        expect(text).toContain(lang === 'ar' ? 'غير موقَّع رقمياً' : 'Not digitally signed');
      });

      it('unknown: says no letter matches, and nothing more', () => {
        const html = verifyPageHtml(outcomes.unknown!, lang, options);
        const text = textOf(html);
        expect(html).toContain('class="state-unknown"');
        expect(text).toContain(
          lang === 'ar' ? 'لا يوجد خطاب يطابق هذا الرابط' : 'No letter matches this link',
        );
        expect(html).not.toContain('id="compare"');
        expect(html).not.toContain('data-expected');
        expect(html).not.toContain('<footer>');
        expect(text).not.toContain('tok_abc123');
      });

      it('tooMany: try again in N seconds, N in the page digits', () => {
        const text = textOf(verifyPageHtml(outcomes.tooMany!, lang, options));
        expect(text).toContain(
          lang === 'ar' ? 'يُرجى المحاولة مرة أخرى بعد ٤٢ ثانية.' : 'Please try again in 42 seconds.',
        );
        const one = textOf(verifyPageHtml({ kind: 'tooMany', retryAfterSeconds: 0.4 }, lang, options));
        expect(one).toContain(lang === 'ar' ? 'بعد ثانية واحدة' : 'in 1 second.');
        if (lang === 'ar')
          expect(textOf(verifyPageHtml({ kind: 'tooMany', retryAfterSeconds: 5 }, lang, options))).toContain(
            'بعد ٥ ثوانٍ',
          );
      });

      it('escapes every dynamic value', () => {
        const evil = '<script>alert(1)</script>"\'&';
        const html = verifyPageHtml(
          found({
            number: '<img src=x onerror=alert(1)>',
            organisation: { ar: evil, en: evil },
            signatory: { nameAr: evil, nameEn: evil, jobAr: evil, jobEn: evil },
            subject: evil,
            sha256: '"><script>x</script>',
          }),
          lang,
          { ...options, otherLangHref: '"><script>alert(2)</script>', scriptSrc: '/v.js"><script>' },
        );
        expect(html).not.toContain('<script>');
        expect(html).not.toContain('<img');
        expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
        expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;');
        expect([...html.matchAll(/<script\b/g)]).toHaveLength(1);
      });
    });
  }

  it('a missing job, or a name only in the other language, still reads', () => {
    const html = verifyPageHtml(
      found({ signatory: { nameAr: 'سالم أحمد', nameEn: '', jobAr: null, jobEn: null } }),
      'en',
      options,
    );
    expect(textOf(html)).toContain('سالم أحمد');
  });

  it('escapeHtml escapes the five characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('the CSP and the headers', () => {
    expect(verifyPageCsp('abcDEF123+/=')).toBe(
      "default-src 'none'; script-src 'self' 'nonce-abcDEF123+/='; style-src 'nonce-abcDEF123+/='; " +
        "img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(verifyHeaders('abcDEF123')).toEqual({
      'Content-Security-Policy': verifyPageCsp('abcDEF123'),
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    // A nonce that could break out of the header or the attribute is refused.
    expect(() => verifyPageCsp("x'; script-src *")).toThrow(RangeError);
    expect(() => verifyPageHtml({ kind: 'unknown' }, 'ar', { ...options, scriptNonce: '"><x' })).toThrow(
      RangeError,
    );
  });

  it('the script has no text of its own and no eval', () => {
    expect(VERIFY_SCRIPT).not.toMatch(/[\u0600-\u06ff]/);
    expect(VERIFY_SCRIPT).not.toMatch(/\beval\b|new Function|innerHTML|insertAdjacentHTML|document\.write/);
    expect(VERIFY_SCRIPT).toContain("crypto.subtle.digest('SHA-256'");
    // It parses.
    expect(() => new Function(VERIFY_SCRIPT)).not.toThrow();
  });
});
