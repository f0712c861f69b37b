/**
 * The public verification page (issue 27): whoever receives a letter scans its QR code and lands on
 * `/verify/<token>` in any browser, signed out. This module only writes that page — a standalone HTML
 * document with its styles inline — and the small script beside it (served as a file at `scriptSrc`),
 * which hashes the PDF the reader holds in their browser and says whether it is the letter as issued.
 * The route, the token lookup and the rate limit are the caller's. Every text is in
 * locales/{ar,en}/verify.json (server-side texts, like server.json: the client never shows them).
 */
import arText from '../../../locales/ar/verify.json';
import enText from '../../../locales/en/verify.json';

export type VerifyLang = 'ar' | 'en';

export type VerifyOutcome =
  | {
      kind: 'found';
      /** As stored, Western digits (`OUT-2026-000012`). */
      number: string;
      approvedAt: Date;
      organisation: { ar: string; en: string };
      signatory: { nameAr: string; nameEn: string; jobAr: string | null; jobEn: string | null };
      /** The issued PDF's SHA-256, hex. */
      sha256: string;
      signed: boolean;
      /** Shown only when given: the caller gives it for the lowest security level only. */
      subject: string | null;
      cancelled: boolean;
      pages: number;
    }
  /** No such token: the page says so and nothing more. */
  | { kind: 'unknown' }
  /** Rate limited. */
  | { kind: 'tooMany'; retryAfterSeconds: number };

export interface VerifyPageOptions {
  /** The token of the link (the page does not repeat it: it is in the address already). */
  token: string;
  /** A fresh per-response nonce, also given to `verifyPageCsp` / `verifyHeaders`. */
  scriptNonce: string;
  /** The same page in the other language. */
  otherLangHref: string;
  /** Where VERIFY_SCRIPT is served (same origin). */
  scriptSrc: string;
  /** The time zone the date of issue is read in (default: the server's). */
  timeZone?: string;
}

type Tree = { [key: string]: string | Tree };
const CATALOGUES: Record<VerifyLang, Tree> = { ar: arText as Tree, en: enText as Tree };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * A text of the page, with `{{name}}` filled from params (already-escaped HTML: callers pass escaped
 * values, and the text itself is escaped here first). Falls back to Arabic, then to the key.
 */
function textHtml(lang: VerifyLang, key: string, params: Record<string, string> = {}): string {
  const text = lookup(CATALOGUES[lang], key) ?? lookup(CATALOGUES.ar, key) ?? key;
  return escapeHtml(text).replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole);
}

/** A plural text (`key_one`, `key_few`…, per the language's plural rules), `{{count}}` in the page's digits. */
function pluralHtml(lang: VerifyLang, key: string, count: number): string {
  const form = new Intl.PluralRules(lang).select(count);
  const chosen = lookup(CATALOGUES[lang], `${key}_${form}`) !== undefined ? `${key}_${form}` : `${key}_other`;
  return textHtml(lang, chosen, { count: escapeHtml(formatCount(lang, count)) });
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

/** Western digits of `text` in the page's digits (Arabic-Indic in Arabic). */
function pageDigits(lang: VerifyLang, text: string): string {
  return lang === 'ar' ? text.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)]!) : text;
}

function formatCount(lang: VerifyLang, value: number): string {
  return new Intl.NumberFormat(lang === 'ar' ? 'ar-SA-u-nu-arab' : 'en-GB').format(value);
}

/**
 * The letter number in the page's digits, for a left-to-right isolate. Arabic-Indic digit groups joined
 * by `-` would be laid out right to left even there (OUT-٠٠٠٠١٢-٢٠٢٦): each such `-` is held between
 * left-to-right marks, as the client's dates are (src-renderer/lib/format.ts).
 */
function numberText(lang: VerifyLang, number: string): string {
  return pageDigits(lang, number).replace(/(?<=[٠-٩])-(?=[٠-٩])/g, '\u200E-\u200E');
}

/** The date of issue in the Hijri (Umm al-Qura) and Gregorian calendars, in the page's language. */
function issueDates(lang: VerifyLang, date: Date, timeZone: string | undefined) {
  const long = { day: 'numeric', month: 'long', year: 'numeric', timeZone } as const;
  const hijri = new Intl.DateTimeFormat(
    lang === 'ar' ? 'ar-SA-u-ca-islamic-umalqura-nu-arab' : 'en-GB-u-ca-islamic-umalqura',
    long,
  ).format(date);
  const gregorian = new Intl.DateTimeFormat(
    lang === 'ar' ? 'ar-SA-u-ca-gregory-nu-arab' : 'en-GB',
    long,
  ).format(date);
  return { hijri, gregorian };
}

/** A nonce goes into a header and an attribute: base64 (or base64url) characters only. */
function checkNonce(nonce: string): void {
  if (!/^[A-Za-z0-9+/_=-]{8,200}$/.test(nonce))
    throw new RangeError('a CSP nonce is 8-200 base64 characters');
}

/** The Content-Security-Policy the route sends with the page (the same nonce as the page's). */
export function verifyPageCsp(nonce: string): string {
  checkNonce(nonce);
  return (
    `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'nonce-${nonce}'; ` +
    `img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`
  );
}

/** Every header the page goes out with, besides its content type. */
export function verifyHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': verifyPageCsp(nonce),
    // The token is in the address: never pass it on to another site, a search engine or a cache.
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

const ICON_OK =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11"/><path d="M6.5 12.5l3.5 3.5 7.5-8"/></svg>';
const ICON_STOP =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11"/><path d="M7.5 7.5l9 9M16.5 7.5l-9 9"/></svg>';
const ICON_INFO =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11"/><path d="M12 7v6M12 16.5v.5"/></svg>';

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
:root{color-scheme:light;--ink:#1c2430;--muted:#5a6472;--line:#d9dee5;--paper:#fff;--page:#f3f5f8;
--ok:#0d6b3b;--ok-bg:#e8f5ed;--bad:#a3131b;--bad-bg:#fdeced;--info:#7a4d00;--info-bg:#fff5e0;--focus:#1d5fd1}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--page);color:var(--ink);line-height:1.6;font-size:1rem;
font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Arabic',Tahoma,sans-serif}
body:lang(ar){font-family:'Noto Sans Arabic','Segoe UI',Tahoma,system-ui,sans-serif;line-height:1.75}
.top{display:flex;align-items:center;justify-content:space-between;gap:1rem;flex-wrap:wrap;
max-inline-size:46rem;margin-inline:auto;padding-block:1rem;padding-inline:1rem}
.service{font-weight:600;color:var(--muted)}
.lang{color:var(--focus);font-weight:600;text-decoration:none;padding-block:.35rem;padding-inline:.75rem;
border:1px solid var(--line);border-radius:999px;background:var(--paper)}
.lang:hover{text-decoration:underline}
a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
main{max-inline-size:46rem;margin-inline:auto;padding-inline:1rem;padding-block-end:1rem}
.card{background:var(--paper);border:1px solid var(--line);border-radius:12px;padding:1.25rem;margin-block-end:1rem}
.verdict{display:flex;gap:1rem;align-items:flex-start;border-inline-start:6px solid var(--ok);background:var(--ok-bg)}
.verdict .icon{flex:none;inline-size:2.5rem;block-size:2.5rem;fill:var(--ok);stroke:#fff;stroke-width:2.2;
stroke-linecap:round;stroke-linejoin:round}
.verdict h1{margin:0;font-size:1.45rem;line-height:1.35;color:var(--ok)}
.verdict p{margin-block:.5rem 0;margin-inline:0}
.state-cancelled .verdict{border:3px solid var(--bad);border-inline-start-width:10px;background:var(--bad-bg)}
.state-cancelled .verdict h1{color:var(--bad);text-transform:uppercase;font-size:1.6rem}
.state-cancelled .verdict .icon{fill:var(--bad)}
.state-cancelled .verdict p{font-weight:600}
.state-cancelled .top{border-block-start:8px solid var(--bad)}
.badge{display:inline-block;margin-block-end:.4rem;padding-block:.1rem;padding-inline:.6rem;border-radius:4px;
background:var(--bad);color:#fff;font-weight:700;letter-spacing:.05em;text-transform:uppercase;font-size:.85rem}
.state-unknown .verdict,.state-tooMany .verdict{border-inline-start-color:var(--info);background:var(--info-bg)}
.state-unknown .verdict h1,.state-tooMany .verdict h1{color:var(--info)}
.state-unknown .verdict .icon,.state-tooMany .verdict .icon{fill:var(--info)}
.facts{margin:0;display:grid;grid-template-columns:1fr;gap:.15rem 0}
.facts dt{color:var(--muted);font-size:.9rem;margin-block-start:.75rem}
.facts dt:first-child{margin-block-start:0}
.facts dd{margin:0;font-weight:600}
.facts .sub{display:block;font-weight:400;color:var(--muted)}
.unsigned{color:var(--bad)}
.hash{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace;
font-size:.85rem;font-weight:400;word-break:break-all;overflow-wrap:anywhere;unicode-bidi:isolate}
.subject{font-weight:400}
@media (min-width:40rem){
.facts{grid-template-columns:minmax(9rem,max-content) 1fr}
.facts dt,.facts dt:first-child{margin-block-start:0;padding-block:.55rem;padding-inline-end:1.25rem}
.facts dd{padding-block:.55rem}
.facts dt:not(:first-of-type),.facts dt:not(:first-of-type)+dd{border-block-start:1px solid var(--line)}
}
.compare h2{margin-block:0 .25rem;font-size:1.15rem}
.compare>p{margin-block:0 1rem;color:var(--muted)}
.zone{position:relative;display:flex;flex-direction:column;gap:.5rem;align-items:flex-start;padding:1rem;border:2px dashed #9aa5b4;
border-radius:10px;background:#fafbfc}
.zone.over{border-color:var(--focus);background:#eaf1fd}
.file{position:absolute;inline-size:1px;block-size:1px;opacity:0;overflow:hidden}
.button{display:inline-block;cursor:pointer;padding-block:.55rem;padding-inline:1.1rem;border-radius:8px;
background:var(--focus);color:#fff;font-weight:600}
.button:hover{background:#174ca8}
.file:focus-visible+.button{outline:3px solid var(--focus);outline-offset:3px}
.file:disabled+.button{opacity:.5;cursor:not-allowed}
.zone .drop{margin:0;color:var(--muted);font-size:.9rem}
.result:empty{display:none}
.result{margin-block-start:1rem;padding:.9rem 1rem;border-radius:10px;border-inline-start:6px solid var(--line);background:#f6f7f9}
.result p{margin:0}
.result p+p{margin-block-start:.4rem}
.result .headline{font-weight:700}
.result[data-state=match]{border-inline-start-color:var(--ok);background:var(--ok-bg)}
.result[data-state=match] .headline{color:var(--ok)}
.result[data-state=mismatch],.result[data-state=error]{border-inline-start-color:var(--bad);background:var(--bad-bg)}
.result[data-state=mismatch] .headline,.result[data-state=error] .headline{color:var(--bad)}
.result .warn{color:var(--bad);font-weight:700}
footer{max-inline-size:46rem;margin-inline:auto;padding-inline:1rem;padding-block:0 2rem;color:var(--muted);font-size:.85rem}
@media print{.compare,.lang{display:none}body{background:#fff}}
`;

interface Page {
  lang: VerifyLang;
  state: 'found' | 'cancelled' | 'unknown' | 'tooMany';
  title: string;
  body: string;
}

function pageDocument(page: Page, options: VerifyPageOptions): string {
  const { lang } = page;
  const other: VerifyLang = lang === 'ar' ? 'en' : 'ar';
  const nonce = escapeHtml(options.scriptNonce);
  // The footer speaks of a letter's recorded details: only on a page that shows them.
  const footer =
    page.state === 'found' || page.state === 'cancelled'
      ? `<footer><p>${textHtml(lang, 'footer')}</p></footer>\n`
      : '';
  return `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${page.title} — ${textHtml(lang, 'service')}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${STYLE}</style>
</head>
<body class="state-${page.state}">
<header class="top">
<span class="service">${textHtml(lang, 'service')}</span>
<a class="lang" href="${escapeHtml(options.otherLangHref)}" hreflang="${other}" lang="${other}" dir="${
    other === 'ar' ? 'rtl' : 'ltr'
  }" title="${textHtml(lang, 'otherLanguage')}">${textHtml(other, 'languageName')}</a>
</header>
<main>
${page.body}
</main>
${footer}<script src="${escapeHtml(options.scriptSrc)}" nonce="${nonce}" defer></script>
</body>
</html>
`;
}

/** A value of unknown language (a name, a subject) kept whole inside the page's text. */
const isolate = (value: string) => `<bdi>${escapeHtml(value)}</bdi>`;

function foundBody(outcome: Extract<VerifyOutcome, { kind: 'found' }>, lang: VerifyLang, timeZone?: string) {
  const t = (key: string, params?: Record<string, string>) => textHtml(lang, key, params);
  const pick = (ar: string | null, en: string | null) => (lang === 'ar' ? ar || en : en || ar) || null; // the other language's when this one is empty
  const organisation = pick(outcome.organisation.ar, outcome.organisation.en) ?? '';
  const name = pick(outcome.signatory.nameAr, outcome.signatory.nameEn) ?? '';
  const job = pick(outcome.signatory.jobAr, outcome.signatory.jobEn);
  const { hijri, gregorian } = issueDates(lang, outcome.approvedAt, timeZone);
  const sha256 = outcome.sha256.toLowerCase();

  const verdict = outcome.cancelled
    ? `<section class="card verdict" aria-labelledby="verdict">${ICON_STOP}<div>
<p class="badge">${t('cancelled.badge')}</p>
<h1 id="verdict">${t('cancelled.headline')}</h1>
<p>${t('cancelled.lead', { organisation: isolate(organisation) })}</p>
</div></section>`
    : `<section class="card verdict" aria-labelledby="verdict">${ICON_OK}<div>
<h1 id="verdict">${t('found.headline', { organisation: isolate(organisation) })}</h1>
<p>${t('found.lead')}</p>
</div></section>`;

  const facts: [string, string][] = [
    ['number', `<bdi dir="ltr" class="number">${escapeHtml(numberText(lang, outcome.number))}</bdi>`],
    [
      'date',
      `${escapeHtml(hijri)}<span class="sub">${t('values.gregorian', { date: escapeHtml(gregorian) })}</span>`,
    ],
    ['organisation', isolate(organisation)],
    ['signatory', `${isolate(name)}${job ? `<span class="sub">${isolate(job)}</span>` : ''}`],
    [
      'signature',
      outcome.signed ? t('values.signed') : `<span class="unsigned">${t('values.unsigned')}</span>`,
    ],
    ['pages', escapeHtml(formatCount(lang, outcome.pages))],
  ];
  if (outcome.subject !== null)
    facts.push(['subject', `<span class="subject" dir="auto">${escapeHtml(outcome.subject)}</span>`]);
  facts.push(['sha256', `<code class="hash" dir="ltr">${escapeHtml(sha256)}</code>`]);

  const list = facts.map(([key, value]) => `<dt>${t(`fields.${key}`)}</dt><dd>${value}</dd>`).join('\n');

  // The script reads its texts and the expected fingerprint from here; hidden until it runs, so a
  // browser without scripts shows no box that cannot work.
  const data: [string, string][] = [
    ['expected', escapeHtml(sha256)],
    ['msg-reading', t('compare.reading')],
    ['msg-match', t('compare.match')],
    ['msg-mismatch', t('compare.mismatch')],
    ['msg-mismatch-hint', t('compare.mismatchHint')],
    ['msg-your-file', t('compare.yourFile')],
    ['msg-error', t('compare.error')],
    ['msg-unsupported', t('compare.unsupported')],
  ];
  if (outcome.cancelled) data.push(['msg-cancelled', t('compare.cancelledNote')]);
  const compare = `<section class="card compare" id="compare" aria-labelledby="compare-heading" hidden ${data
    .map(([name, value]) => `data-${name}="${value}"`)
    .join(' ')}>
<h2 id="compare-heading">${t('compare.heading')}</h2>
<p id="compare-help">${t('compare.help')}</p>
<div class="zone" id="compare-zone">
<input type="file" id="compare-file" class="file" accept="application/pdf,.pdf" aria-describedby="compare-help">
<label for="compare-file" class="button">${t('compare.choose')}</label>
<p class="drop">${t('compare.drop')}</p>
</div>
<div class="result" id="compare-result" role="status" aria-live="polite" aria-atomic="true"></div>
</section>`;

  return `${verdict}
<section class="card"><dl class="facts">
${list}
</dl></section>
${compare}`;
}

function shortBody(lang: VerifyLang, headline: string, lead: string): string {
  return `<section class="card verdict" aria-labelledby="verdict">${ICON_INFO}<div>
<h1 id="verdict">${headline}</h1>
<p>${lead}</p>
</div></section>`;
}

/** The verification page for an outcome, in a language: a complete HTML document. */
export function verifyPageHtml(outcome: VerifyOutcome, lang: VerifyLang, options: VerifyPageOptions): string {
  checkNonce(options.scriptNonce);
  const t = (key: string) => textHtml(lang, key);
  switch (outcome.kind) {
    case 'found': {
      const state = outcome.cancelled ? 'cancelled' : 'found';
      return pageDocument(
        { lang, state, title: t(`${state}.title`), body: foundBody(outcome, lang, options.timeZone) },
        options,
      );
    }
    case 'unknown':
      return pageDocument(
        {
          lang,
          state: 'unknown',
          title: t('unknown.title'),
          body: shortBody(lang, t('unknown.headline'), t('unknown.lead')),
        },
        options,
      );
    case 'tooMany': {
      const seconds = Math.max(0, Math.ceil(outcome.retryAfterSeconds));
      return pageDocument(
        {
          lang,
          state: 'tooMany',
          title: t('tooMany.title'),
          body: shortBody(lang, t('tooMany.headline'), pluralHtml(lang, 'tooMany.lead', seconds)),
        },
        options,
      );
    }
  }
}

/**
 * The page's script, served as a file at `scriptSrc` (script-src 'self'). It has no text of its own:
 * the page's texts and the expected fingerprint are data attributes of #compare. The reader's file is
 * hashed with crypto.subtle in the browser (a secure context: https, or localhost) and never leaves it.
 */
export const VERIFY_SCRIPT = `'use strict';
(function () {
  var box = document.getElementById('compare');
  var input = document.getElementById('compare-file');
  var zone = document.getElementById('compare-zone');
  var out = document.getElementById('compare-result');
  if (!box || !input || !zone || !out) return;
  var data = box.dataset;
  var expected = (data.expected || '').toLowerCase();
  box.hidden = false;

  function line(text, className, dir) {
    var p = document.createElement('p');
    if (className) p.className = className;
    if (dir) p.dir = dir;
    p.textContent = text;
    return p;
  }
  function show(state, lines) {
    out.dataset.state = state;
    out.replaceChildren.apply(out, lines);
  }

  if (!(window.crypto && crypto.subtle && typeof Blob.prototype.arrayBuffer === 'function')) {
    input.disabled = true;
    show('error', [line(data.msgUnsupported, 'headline')]);
    return;
  }

  function hex(buffer) {
    return Array.prototype.map
      .call(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, '0'); })
      .join('');
  }

  var latest = 0;
  function check(file) {
    var run = ++latest;
    show('busy', [line(data.msgReading)]);
    file.arrayBuffer()
      .then(function (bytes) { return crypto.subtle.digest('SHA-256', bytes); })
      .then(function (digest) {
        if (run !== latest) return;
        var actual = hex(digest);
        var name = document.createElement('bdi');
        name.textContent = file.name;
        var fileLine = document.createElement('p');
        fileLine.append(name);
        var lines = [];
        if (actual === expected) {
          lines.push(line(data.msgMatch, 'headline'), fileLine);
        } else {
          var label = line(data.msgYourFile);
          var code = document.createElement('code');
          code.className = 'hash';
          code.dir = 'ltr';
          code.textContent = actual;
          label.append(document.createElement('br'), code);
          lines.push(line(data.msgMismatch, 'headline'), line(data.msgMismatchHint), fileLine, label);
        }
        if (data.msgCancelled) lines.push(line(data.msgCancelled, 'warn'));
        show(actual === expected ? 'match' : 'mismatch', lines);
      })
      .catch(function () {
        if (run === latest) show('error', [line(data.msgError, 'headline')]);
      });
  }

  input.addEventListener('change', function () {
    if (input.files && input.files[0]) check(input.files[0]);
  });

  // A file dropped anywhere on the page is checked: left to itself, the browser would open it instead.
  var depth = 0;
  window.addEventListener('dragenter', function (event) {
    event.preventDefault();
    depth++;
    zone.classList.add('over');
  });
  window.addEventListener('dragleave', function () {
    depth = Math.max(0, depth - 1);
    if (depth === 0) zone.classList.remove('over');
  });
  window.addEventListener('dragover', function (event) {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', function (event) {
    event.preventDefault();
    depth = 0;
    zone.classList.remove('over');
    var files = event.dataTransfer && event.dataTransfer.files;
    if (files && files[0]) check(files[0]);
  });
})();
`;
