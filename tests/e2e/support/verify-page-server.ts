/**
 * A tiny server for tests/e2e/verify-page.spec.ts: the public verification page and its script, with
 * the page's headers, and nothing of Sijill else. Run under tsx (`node --import tsx`), which loads the
 * page's locale JSON as the server build does (Playwright's own loader cannot). The expected SHA-256 is
 * given in VERIFY_SHA256; it prints its address once listening. Tokens: `good`, `cancelled`, `busy`
 * (rate limited), anything else is unknown; `?lang=en` for English.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  VERIFY_SCRIPT,
  verifyHeaders,
  verifyPageHtml,
  type VerifyLang,
  type VerifyOutcome,
} from '../../../src-server/modules/final/verify-page';

const sha256 = process.env.VERIFY_SHA256 ?? '';

function found(cancelled: boolean): VerifyOutcome {
  return {
    kind: 'found',
    number: 'OUT-2026-000012',
    approvedAt: new Date('2026-11-27T09:00:00Z'),
    organisation: { ar: 'وزارة الشؤون البلدية والقروية', en: 'Ministry of Municipal and Rural Affairs' },
    signatory: {
      nameAr: 'عبدالله بن سالم القحطاني',
      nameEn: 'Abdullah bin Salem Al-Qahtani',
      jobAr: 'وكيل الوزارة للشؤون الإدارية',
      jobEn: 'Deputy Minister for Administrative Affairs',
    },
    sha256,
    signed: true,
    subject: 'تعميم بشأن مواعيد الدوام الرسمي',
    cancelled,
    pages: 3,
  };
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/verify/assets/verify.js') {
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(VERIFY_SCRIPT);
    return;
  }
  const token = /^\/verify\/(\w+)$/.exec(url.pathname)?.[1];
  if (!token) {
    res.writeHead(404).end();
    return;
  }
  const lang: VerifyLang = url.searchParams.get('lang') === 'en' ? 'en' : 'ar';
  const outcome: VerifyOutcome =
    token === 'good' || token === 'cancelled'
      ? found(token === 'cancelled')
      : token === 'busy'
        ? { kind: 'tooMany', retryAfterSeconds: 30 }
        : { kind: 'unknown' };
  const nonce = randomBytes(16).toString('base64');
  res.writeHead(outcome.kind === 'tooMany' ? 429 : 200, {
    ...verifyHeaders(nonce),
    'Content-Type': 'text/html; charset=utf-8',
  });
  res.end(
    verifyPageHtml(outcome, lang, {
      token,
      scriptNonce: nonce,
      otherLangHref: `/verify/${token}${lang === 'ar' ? '?lang=en' : ''}`,
      scriptSrc: '/verify/assets/verify.js',
    }),
  );
});

server.listen(0, '127.0.0.1', () => {
  console.log(`verify page server: http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
