/**
 * The letter that leaves (issue 27), over HTTP with the background worker running: the signatory's
 * approval makes the final PDF (the author's letter stamped, the original kept unchanged); with the
 * organisation's certificate it is signed (poppler's pdfsig says valid, and invalid once a byte changes);
 * the public verification page answers by token in both languages, shows the subject only at the lowest
 * security level, says a cancelled letter is cancelled, and is rate limited; the settings and the
 * certificate are the administrator's, the certificate's secrets never come back.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caChain, selfSigned } from '../support/certificates';
import { actor, type Actor } from './support/correspondence';
import {
  approvedLetter as approved,
  documentPath as doc,
  finalWorld,
  madeFinal as made,
  type FinalWorld,
} from './support/final';
import { call, makeRole, startHarness, type Harness } from './support/harness';

let h: Harness;
let w: FinalWorld;
let admin: Actor;
let author: Actor;
let clerk: Actor;
let minister: Actor;
const dataDir = mkdtempSync(join(tmpdir(), 'sijill-final-'));

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body?: unknown) =>
  call(h, { method: 'POST', url, token: who.token, ...(body !== undefined ? { body } : {}) });
const put = (who: Actor, url: string, body: unknown) =>
  call(h, { method: 'PUT', url, token: who.token, body });
const approvedLetter = (options: Parameters<typeof approved>[2] = {}) => approved(h, w, options);
const madeFinal = (who: Actor, id: number) => made(h, who, id);

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1', DATA_DIR: dataDir, VERIFY_RATE_LIMIT_PER_MINUTE: '0' });
  w = await finalWorld(h);
  ({ admin, author, clerk, minister } = w);
});
afterAll(async () => h?.close());

const fileOf = async (who: Actor, id: number) => {
  const res = await h.app.inject({
    method: 'GET',
    url: `${doc(id)}/final/file`,
    headers: { authorization: `Bearer ${who.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const tokenOf = async (id: number) =>
  (await h.query<{ token: string }>(`select token from final_letters where document_id = ${id}`))[0]!.token;

function tool(name: string, args: string[], bytes: Buffer): string {
  const path = join(dataDir, `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  try {
    return execFileSync(name, [...args, path, ...(name === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  } catch (error) {
    // pdfsig exits non-zero for an invalid signature: its report is what the test reads.
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

const verifyPage = (token: string, query = '') =>
  h.app.inject({ method: 'GET', url: `/verify/${token}${query}` });

describe('the final PDF', () => {
  it('is made after the signatory approves: stamped, unsigned without a certificate, the original kept', async () => {
    const { id, original } = await approvedLetter();
    const f = await madeFinal(author, id);
    expect(f).toMatchObject({ state: 'done', signed: false, pages: 2, error: null, cancelled: null });
    // The author sees it but does not manage it; the archive office does.
    expect(f.mayManage).toBe(false);
    expect((await madeFinal(clerk, id)).mayManage).toBe(true);
    const bytes = await fileOf(author, id);
    expect(sha256(bytes)).toBe(f.sha256);
    // The original stays as the author attached it.
    const attachments = (await get(author, doc(id))).json.data.attachments as { sha256: string }[];
    expect(attachments.map((a) => a.sha256)).toEqual([sha256(original!)]);
    expect(f.sha256).not.toBe(sha256(original!));
    // The stamp's words come back from poppler, in logical order; page 2 is the author's page 2.
    const number = (await get(author, doc(id))).json.data.docNumber as string;
    const page1 = tool('pdftotext', ['-f', '1', '-l', '1'], bytes).normalize('NFKC');
    expect(page1).toContain('وزارة المالية');
    expect(page1).toContain('Ministry of Finance');
    // The number in Arabic-Indic digits (the default); pdftotext may order a mixed line's runs as drawn,
    // so its digit groups are looked for one by one.
    const arabicIndic = (s: string) => s.replace(/[0-9]/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]!);
    for (const group of number.match(/[0-9]+/g)!) expect(page1).toContain(arabicIndic(group));
    expect(tool('pdftotext', ['-f', '2', '-l', '2'], bytes)).toContain('Letter body, page 2');
    // On the timeline, unsigned.
    const events = (await get(author, `${doc(id)}/timeline`)).json.data as {
      event: string;
      details: object;
    }[];
    expect(events.find((e) => e.event === 'finalMade')?.details).toMatchObject({ signed: false, pages: 2 });
  });

  it('a memo gets the same stamp; a letter without a PDF fails with its reason and can be made again', async () => {
    const memo = await approvedLetter({ memo: true });
    const f = await madeFinal(author, memo.id);
    expect(f.state).toBe('done');
    const text = tool('pdftotext', ['-f', '1', '-l', '1'], await fileOf(author, memo.id)).normalize('NFKC');
    expect(text).toContain('مذكرة داخلية');
    // A letter approved without a PDF: failed, with the reason; its archive office may try again.
    const bare = await approvedLetter({ pdf: null });
    const failed = await madeFinal(author, bare.id);
    expect(failed).toMatchObject({ state: 'failed', error: 'final.noLetter', sha256: null });
    const events = (await get(author, `${doc(bare.id)}/timeline`)).json.data as { event: string }[];
    expect(events.map((e) => e.event)).toContain('finalFailed');
    expect((await post(clerk, `${doc(bare.id)}/final/remake`)).status).toBe(200);
    expect(await madeFinal(author, bare.id)).toMatchObject({ state: 'failed', error: 'final.noLetter' });
  });

  it('is not shown to someone who may not see the document, nor made twice', async () => {
    const { id } = await approvedLetter();
    await madeFinal(author, id);
    const outsider = await actor(h, await makeRole(h, {}), null);
    expect((await get(outsider, `${doc(id)}/final`)).status).toBe(404);
    const file = await h.app.inject({
      method: 'GET',
      url: `${doc(id)}/final/file`,
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(file.statusCode).toBe(404);
    const rows = await h.query<{ n: number }>(
      `select count(*)::int as n from document_events where document_id = ${id} and event = 'finalMade'`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('a letter approved before final PDFs existed', () => {
  it('has none until its archive office makes it; nothing to cancel meanwhile', async () => {
    const { id } = await approvedLetter();
    await madeFinal(author, id);
    // As an upgraded organisation's letters are: approved, numbered, no final PDF.
    await h.query(`delete from final_letters where document_id = ${id}`);
    const none = await get(author, `${doc(id)}/final`);
    expect(none.json.data).toMatchObject({ state: 'none', sha256: null, mayManage: false });
    expect((await get(clerk, `${doc(id)}/final`)).json.data).toMatchObject({
      state: 'none',
      mayManage: true,
    });
    expect((await post(author, `${doc(id)}/final/remake`)).status).toBe(403);
    expect((await post(clerk, `${doc(id)}/final/cancel`, { reason: 'لا شيء' })).status).toBe(404);
    const made = await post(clerk, `${doc(id)}/final/remake`);
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    expect(await madeFinal(author, id)).toMatchObject({ state: 'done', pages: 2 });
    expect(await tokenOf(id)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // An incoming letter has none at all.
    const incoming = await post(admin, '/correspondence/documents', {
      direction: 'in',
      subject: 'وارد',
    });
    expect(incoming.status, JSON.stringify(incoming.json)).toBe(201);
    expect((await get(admin, `${doc(incoming.json.data.id as number)}/final`)).json.data).toBeNull();
  });
});

describe('the certificate and the signature', () => {
  it('is the administrator’s; a wrong password or an expired certificate is refused, nothing stored', async () => {
    const cert = selfSigned({ cn: 'Ministry of Finance' });
    const body = { pkcs12: Buffer.from(cert.p12).toString('base64'), password: cert.password };
    expect((await put(author, '/correspondence/letter-settings/certificate', body)).status).toBe(403);
    expect((await get(author, '/correspondence/letter-settings')).status).toBe(403);
    const wrong = await put(admin, '/correspondence/letter-settings/certificate', {
      ...body,
      password: 'nope',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.code).toBe('final.certificate.wrongPassword');
    const past = selfSigned({
      cn: 'Expired',
      notBefore: new Date(Date.now() - 400 * 86_400_000),
      notAfter: new Date(Date.now() - 30 * 86_400_000),
    });
    const expired = await put(admin, '/correspondence/letter-settings/certificate', {
      pkcs12: Buffer.from(past.p12).toString('base64'),
      password: past.password,
    });
    expect(expired.status).toBe(422);
    expect(expired.json.code).toBe('final.certificate.expired');
    const garbage = await put(admin, '/correspondence/letter-settings/certificate', {
      pkcs12: Buffer.from('not a certificate').toString('base64'),
      password: 'x',
    });
    expect(garbage.json.code).toBe('final.certificate.notPkcs12');
    const rows = await h.query<{ certificate_sealed: string | null }>(
      'select certificate_sealed from organisation_settings',
    );
    expect(rows[0]!.certificate_sealed).toBeNull();
  });

  it('signs letters approved once it is set: pdfsig says valid, and invalid after one byte changes', async () => {
    const chain = caChain('Ministry of Finance Signer');
    const set = await put(admin, '/correspondence/letter-settings/certificate', {
      pkcs12: Buffer.from(chain.p12).toString('base64'),
      password: chain.password,
    });
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json.data.certificate).toMatchObject({ chainLength: 3 });
    expect(set.json.data.certificate.subject).toContain('Ministry of Finance Signer');
    // Never the secrets: not in the answer, not in the clear in the database.
    const raw = JSON.stringify(set.json);
    expect(raw).not.toContain(Buffer.from(chain.p12).toString('base64').slice(0, 40));
    expect(raw).not.toContain(chain.password);
    const [row] = await h.query<{ certificate_sealed: string; certificate_password_sealed: string }>(
      'select certificate_sealed, certificate_password_sealed from organisation_settings',
    );
    expect(
      Buffer.from(row!.certificate_sealed, 'base64').includes(Buffer.from(chain.p12).subarray(0, 64)),
    ).toBe(false);
    expect(Buffer.from(row!.certificate_password_sealed, 'base64').toString('utf8')).not.toContain(
      chain.password,
    );

    const { id } = await approvedLetter();
    const f = await madeFinal(author, id);
    expect(f).toMatchObject({ state: 'done', signed: true });
    expect(f.certificate?.subject).toContain('Ministry of Finance Signer');
    const bytes = await fileOf(author, id);
    expect(tool('pdfsig', [], bytes)).toMatch(/Signature Validation: Signature is Valid/);
    // One byte of the signed page changed: the signature no longer holds.
    // (The PDF's version in its header, inside the first signed range.)
    const changed = Buffer.from(bytes);
    expect(changed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    changed[7] = changed[7] === 0x37 ? 0x36 : 0x37;
    expect(tool('pdfsig', [], changed)).not.toMatch(/Signature is Valid/);
  });

  it('a letter stamped before the certificate is signed when its archive office makes it again', async () => {
    await call(h, {
      method: 'DELETE',
      url: '/correspondence/letter-settings/certificate',
      token: admin.token,
    });
    const { id } = await approvedLetter();
    expect((await madeFinal(author, id)).signed).toBe(false);
    const cert = selfSigned({ cn: 'Ministry of Finance' });
    await put(admin, '/correspondence/letter-settings/certificate', {
      pkcs12: Buffer.from(cert.p12).toString('base64'),
      password: cert.password,
    });
    expect((await post(author, `${doc(id)}/final/remake`)).status).toBe(403);
    const again = await post(clerk, `${doc(id)}/final/remake`);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect((await madeFinal(author, id)).signed).toBe(true);
  });
});

describe('the verification page', () => {
  it('answers by token in Arabic and English, with the final PDF’s hash; the subject at the lowest level only', async () => {
    const saved = await put(admin, '/correspondence/letter-settings', {
      stampCorner: 'top-start',
      stampDigits: 'western',
      stampHeadingAr: null,
      stampHeadingEn: null,
      verifyBaseUrl: 'https://sijill.example.gov/',
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.data.verifyBaseUrl).toBe('https://sijill.example.gov');
    const { id } = await approvedLetter();
    const f = await madeFinal(author, id);
    const token = await tokenOf(id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(f.verifyUrl).toBe(`https://sijill.example.gov/verify/${token}`);
    const number = (await get(author, doc(id))).json.data.docNumber as string;
    // The QR code's link is in the stamp, with Western digits as set.
    const text = tool('pdftotext', ['-f', '1', '-l', '1'], await fileOf(author, id));
    expect(text).toContain(number);

    const ar = await verifyPage(token);
    expect(ar.statusCode).toBe(200);
    expect(ar.headers['content-type']).toContain('text/html');
    expect(String(ar.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(ar.headers['cache-control']).toBe('no-store');
    expect(ar.body).toContain('lang="ar"');
    expect(ar.body).toContain(f.sha256!);
    expect(ar.body).toContain('الرد على طلب الميزانية');
    const en = await verifyPage(token, '?lang=en');
    expect(en.body).toContain('lang="en"');
    expect(en.body).toContain(number);
    expect(en.body).toContain('Ministry of Finance');

    // Its author and signatory cleared for secret letters, one is written and approved at that level.
    for (const who of [author, minister])
      await h.query(
        `insert into user_clearances (user_id, security_level_id) values (${who.userId}, ${w.secret})
           on conflict (user_id) do update set security_level_id = excluded.security_level_id`,
      );
    const secret = await approvedLetter({ securityLevelId: w.secret });
    await madeFinal(author, secret.id);
    const hidden = await verifyPage(await tokenOf(secret.id));
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).not.toContain('الرد على طلب الميزانية');
  });

  it('knows nothing of an unknown or malformed token, and says a cancelled letter is cancelled', async () => {
    const unknown = await verifyPage('AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    for (const bad of ['..%2F..%2Fetc', "x'or'1'='1", 'a'.repeat(90), 'AAAAAAAAAAAAAAAAAAAAA_']) {
      const res = await verifyPage(bad);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(bad);
    }
    // A control character: the app's refusal (400), on the same page, in the page's language.
    const nul = await verifyPage('%00', '?lang=en');
    expect(nul.statusCode).toBe(400);
    expect(nul.headers['content-type']).toContain('text/html');
    expect(nul.body).toContain('lang="en"');
    // Too long for the router: refused before any lookup, never echoed — here and on every route.
    for (const url of [`/verify/${'a'.repeat(300)}`, `/correspondence/documents/${'a'.repeat(300)}`]) {
      const long = await h.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expect(long.statusCode).toBe(404);
      expect(long.headers['content-type']).toContain('application/problem+json');
      expect(long.json().title).toBe('Not found');
      expect(long.body).not.toContain('a'.repeat(300));
    }
    const { id } = await approvedLetter();
    await madeFinal(author, id);
    expect((await post(author, `${doc(id)}/final/cancel`, { reason: 'أُرسل خطأً' })).status).toBe(403);
    const cancelled = await post(clerk, `${doc(id)}/final/cancel`, { reason: 'أُرسل خطأً' });
    expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200);
    expect(cancelled.json.data.cancelled).toMatchObject({ reason: 'أُرسل خطأً' });
    expect((await post(clerk, `${doc(id)}/final/remake`)).status).toBe(409);
    const page = await verifyPage(await tokenOf(id), '?lang=en');
    expect(page.statusCode).toBe(200);
    expect(page.body.toLowerCase()).toContain('cancelled');
  });

  it('is rate limited per address, answering a page that says when to try again', async () => {
    const limited = await startHarness({ VERIFY_RATE_LIMIT_PER_MINUTE: '3', DATA_DIR: dataDir });
    try {
      const statuses: number[] = [];
      let last = '';
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'GET',
          url: '/verify/AAAAAAAAAAAAAAAAAAAAAA?lang=en',
        });
        statuses.push(res.statusCode);
        last = res.body;
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      expect(last).toContain('lang="en"');
    } finally {
      await limited.close();
    }
  });
});
