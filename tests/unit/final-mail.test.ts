/**
 * Sending a final letter by e-mail (src-server/modules/final/mail.ts) against a real SMTP server started
 * here (smtp-server on an ephemeral port). The received message is taken apart with tests/support/mime.ts
 * (mailparser is not installed).
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import forge from 'node-forge';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkSmtp,
  sendFinalLetter,
  smtpSettingsSchema,
  type FinalLetterMail,
  type SmtpSettings,
} from '../../src-server/modules/final/mail';
import { contentType, decodeWords, headerParams, leaves, parseMime } from '../support/mime';

// ---------------------------------------------------------------------------------------------------
// A real SMTP server, on an ephemeral (or a given) port of 127.0.0.1.

interface Received {
  rcptTo: string[];
  mailFrom: string | null;
  secure: boolean;
  raw: Buffer;
}

interface TestServer {
  port: number;
  received: Received[];
  /** Whether each sign-in attempt came over TLS. */
  authOverTls: boolean[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function startServer(options: SMTPServerOptions = {}, port = 0): Promise<TestServer> {
  const received: Received[] = [];
  const authOverTls: boolean[] = [];
  const givenOnAuth = options.onAuth;
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    ...options,
    onAuth(auth, session, callback) {
      authOverTls.push(session.secure);
      if (givenOnAuth) givenOnAuth.call(server, auth, session, callback);
      else callback(null, { user: auth.username });
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        received.push({
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          mailFrom: from === false ? null : from.address,
          secure: session.secure,
          raw: Buffer.concat(chunks),
        });
        callback(null, 'Queued as TEST1');
      });
    },
  });
  // A client that drops the connection (refusing our certificate) is an 'error' on the server: expected here.
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const test: TestServer = {
    port: (server.server.address() as AddressInfo).port,
    received,
    authOverTls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(test);
  return test;
}

/** A port nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A self-signed certificate for localhost / 127.0.0.1, made now (node:crypto key, node-forge certificate). */
function selfSignedCertificate(): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const name = [{ name: 'commonName', value: 'localhost' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { key: privateKey, cert: forge.pki.certificateToPem(cert) };
}

// ---------------------------------------------------------------------------------------------------

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const FILE_NAME = 'خطاب صادر رقم OUT-2026-000012.pdf';

function letter(overrides: Partial<FinalLetterMail> = {}): FinalLetterMail {
  // The PDF stands at an offset inside a larger buffer, as a slice of a read file would.
  const pdf = new Uint8Array(randomBytes(70_000)).subarray(7, 60_007);
  return {
    to: 'receiver@example.org',
    number: 'OUT-2026-000012',
    subjectAr: 'طلب تجديد عقد الصيانة',
    subjectEn: 'Renewal of the maintenance contract',
    organisation: { ar: 'الإدارة العامة للسجلات', en: 'Records <Directorate> & "Archives"' },
    verifyUrl: 'https://sijill.example.org/verify/abc123?x=1&y=2',
    attachment: { fileName: FILE_NAME, bytes: pdf },
    ...overrides,
  };
}

function settings(port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  return {
    host: '127.0.0.1',
    port,
    security: 'none',
    username: null,
    password: null,
    fromAddress: 'registry@example.org',
    fromName: 'سجل — Registry',
    ...overrides,
  };
}

const FAST = { timeoutMs: 3000 };

describe('sendFinalLetter', () => {
  it('delivers the bilingual covering message with the PDF byte for byte', async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS'] });
    const mail = letter();
    const outcome = await sendFinalLetter(settings(server.port), mail, FAST);
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    expect(outcome.messageId).toMatch(/^<.+@.+>$/);
    expect(outcome.response).toContain('Queued as TEST1');

    expect(server.received).toHaveLength(1);
    const [message] = server.received;
    expect(message?.rcptTo).toEqual(['receiver@example.org']);
    expect(message?.mailFrom).toBe('registry@example.org');
    const root = parseMime(message?.raw ?? Buffer.alloc(0));

    const subject = decodeWords(root.headers.get('subject') ?? '');
    expect(subject).toBe(
      'OUT-2026-000012 — الإدارة العامة للسجلات | Records <Directorate> & "Archives" — طلب تجديد عقد الصيانة | Renewal of the maintenance contract',
    );
    expect(decodeWords(root.headers.get('from') ?? '')).toContain('سجل — Registry');
    expect(root.headers.get('to')).toBe('receiver@example.org');

    const parts = leaves(root);
    const html = parts.find((p) => contentType(p) === 'text/html')?.body.toString('utf8') ?? '';
    const text = parts.find((p) => contentType(p) === 'text/plain')?.body.toString('utf8') ?? '';

    // HTML: right-to-left, Arabic before English, everything escaped, the address a link.
    expect(html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(html).toContain('<div dir="rtl" lang="ar"');
    expect(html.indexOf('مرفق بهذه الرسالة خطاب من')).toBeGreaterThan(-1);
    expect(html.indexOf('مرفق بهذه الرسالة خطاب من')).toBeLessThan(html.indexOf('Attached to this message'));
    expect(html).toContain('Records &lt;Directorate&gt; &amp; &quot;Archives&quot;');
    expect(html).not.toContain('<Directorate>');
    expect(html).toContain(
      '<a href="https://sijill.example.org/verify/abc123?x=1&amp;y=2">https://sijill.example.org/verify/abc123?x=1&amp;y=2</a>',
    );
    expect(html).toContain('<span dir="ltr">OUT-2026-000012</span>');

    // Text: both languages, Arabic first, the number, the subjects and the verification address.
    const arabicAt = text.indexOf('مرفق بهذه الرسالة خطاب من الإدارة العامة للسجلات.');
    const englishAt = text.indexOf(
      'Attached to this message is a letter from Records <Directorate> & "Archives".',
    );
    expect(arabicAt).toBe(0);
    expect(englishAt).toBeGreaterThan(arabicAt);
    expect(text).toContain('رقم الخطاب: OUT-2026-000012');
    expect(text).toContain('Letter number: OUT-2026-000012');
    expect(text).toContain('الموضوع: طلب تجديد عقد الصيانة');
    expect(text).toContain('Subject: Renewal of the maintenance contract');
    expect(text).toContain('للتحقق من صحة الخطاب: https://sijill.example.org/verify/abc123?x=1&y=2');
    expect(text).toContain('To verify the letter: https://sijill.example.org/verify/abc123?x=1&y=2');

    // The PDF: same bytes, the Arabic file name intact.
    const pdf = parts.find((p) => contentType(p) === 'application/pdf');
    expect(pdf).toBeDefined();
    const disposition = headerParams(pdf?.headers.get('content-disposition') ?? '');
    expect(disposition.value).toBe('attachment');
    expect(disposition.params.get('filename')).toBe(FILE_NAME);
    expect(pdf?.body.length).toBe(mail.attachment.bytes.byteLength);
    expect(sha256(pdf?.body ?? Buffer.alloc(0))).toBe(sha256(mail.attachment.bytes));
  });

  it('leaves out the subject and the verification sentence when not given, and links only web addresses', async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS'] });
    const outcome = await sendFinalLetter(
      settings(server.port, { fromName: null }),
      letter({ subjectAr: null, subjectEn: null, verifyUrl: null }),
      FAST,
    );
    expect(outcome.ok).toBe(true);
    const root = parseMime(server.received[0]?.raw ?? Buffer.alloc(0));
    expect(decodeWords(root.headers.get('subject') ?? '')).toBe(
      'OUT-2026-000012 — الإدارة العامة للسجلات | Records <Directorate> & "Archives"',
    );
    expect(root.headers.get('from')).toBe('registry@example.org');
    const parts = leaves(root);
    const text = parts.find((p) => contentType(p) === 'text/plain')?.body.toString('utf8') ?? '';
    expect(text).not.toContain('الموضوع');
    expect(text).not.toContain('verify');

    const hostile = await sendFinalLetter(
      settings(server.port),
      letter({ verifyUrl: 'javascript:alert(1)', subjectEn: '<img src=x onerror=alert(1)>' }),
      FAST,
    );
    expect(hostile.ok).toBe(true);
    const html =
      leaves(parseMime(server.received[1]?.raw ?? Buffer.alloc(0)))
        .find((p) => contentType(p) === 'text/html')
        ?.body.toString('utf8') ?? '';
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('refuses a receiver that is not one e-mail address without connecting', async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS'] });
    const outcome = await sendFinalLetter(
      settings(server.port),
      letter({ to: 'a@example.org, b@example.org' }),
      FAST,
    );
    expect(outcome).toMatchObject({ ok: false, code: 'EENVELOPE', permanent: true });
    expect(server.received).toHaveLength(0);
  });

  it('signs in: a wrong password is EAUTH with a readable reason, the right one sends', async () => {
    const server = await startServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'registry' && auth.password === 'correct horse')
          callback(null, { user: 'registry' });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
    });
    const wrong = await sendFinalLetter(
      settings(server.port, { username: 'registry', password: 'wrong' }),
      letter(),
      FAST,
    );
    expect(wrong).toMatchObject({ ok: false, code: 'EAUTH' });
    if (!wrong.ok) expect(wrong.error).toMatch(/invalid login.*535.*invalid username or password/i);

    const none = await sendFinalLetter(settings(server.port), letter(), FAST);
    expect(none.ok).toBe(false);

    const right = await sendFinalLetter(
      settings(server.port, { username: 'registry', password: 'correct horse' }),
      letter(),
      FAST,
    );
    expect(right.ok).toBe(true);
    expect(server.received).toHaveLength(1);
  });

  it('answers a server that is down with the refusal, and a retry succeeds once it is up', async () => {
    const port = await closedPort();
    const down = await sendFinalLetter(settings(port), letter(), { timeoutMs: 2000 });
    expect(down).toMatchObject({ ok: false, permanent: false });
    if (!down.ok) {
      expect(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT']).toContain(down.code);
      expect(down.error).toContain('ECONNREFUSED');
    }

    const server = await startServer({ disabledCommands: ['STARTTLS'] }, port);
    const retry = await sendFinalLetter(settings(port), letter(), { timeoutMs: 2000 });
    expect(retry.ok).toBe(true);
    expect(server.received).toHaveLength(1);
  });

  it('gives up on a server that accepts the connection but never greets, within the timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      // Ended by our own timeout (ETIMEDOUT), not by the server: it never answers.
      const outcome = await sendFinalLetter(settings((silent.address() as AddressInfo).port), letter(), {
        timeoutMs: 500,
      });
      expect(outcome).toMatchObject({ ok: false, code: 'ETIMEDOUT', permanent: false });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a 550 for the receiver is permanent, a 450 is not', async () => {
    const server = await startServer({
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody@'))
          callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        else if (address.address.startsWith('busy@'))
          callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
        else callback();
      },
    });
    const rejected = await sendFinalLetter(settings(server.port), letter({ to: 'nobody@example.org' }), FAST);
    expect(rejected).toMatchObject({ ok: false, code: 'EENVELOPE', permanent: true });
    if (!rejected.ok) expect(rejected.error).toContain('No such user here');

    const deferred = await sendFinalLetter(settings(server.port), letter({ to: 'busy@example.org' }), FAST);
    expect(deferred).toMatchObject({ ok: false, permanent: false });
    expect(server.received).toHaveLength(0);
  });
});

describe('TLS', () => {
  let certificate: { key: string; cert: string };
  beforeAll(() => {
    certificate = selfSignedCertificate();
  });

  it('STARTTLS with a self-signed certificate fails unless allowSelfSigned is set', async () => {
    const server = await startServer({ key: certificate.key, cert: certificate.cert });
    const refused = await sendFinalLetter(settings(server.port, { security: 'starttls' }), letter(), FAST);
    expect(refused).toMatchObject({ ok: false, permanent: false });
    if (!refused.ok) {
      expect(['ETLS', 'ESOCKET']).toContain(refused.code);
      expect(refused.error).toMatch(/self[- ]signed certificate/i);
    }
    expect(server.received).toHaveLength(0);

    const allowed = await sendFinalLetter(
      settings(server.port, { security: 'starttls', allowSelfSigned: true }),
      letter(),
      FAST,
    );
    expect(allowed.ok).toBe(true);
    expect(server.received[0]?.secure).toBe(true);
  });

  it("'starttls' refuses a server that does not offer it", async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS'] });
    const outcome = await sendFinalLetter(
      settings(server.port, { security: 'starttls', allowSelfSigned: true }),
      letter(),
      FAST,
    );
    expect(outcome.ok).toBe(false);
    expect(server.received).toHaveLength(0);
  });

  it("'none' still upgrades when the server offers STARTTLS, so the password does not go in clear", async () => {
    const server = await startServer({ key: certificate.key, cert: certificate.cert, authOptional: false });
    const outcome = await sendFinalLetter(
      settings(server.port, { username: 'registry', password: 'secret', allowSelfSigned: true }),
      letter(),
      FAST,
    );
    expect(outcome.ok).toBe(true);
    expect(server.authOverTls).toEqual([true]);
    expect(server.received[0]?.secure).toBe(true);
  });

  it("'tls' talks TLS from the first byte", async () => {
    const server = await startServer({ secure: true, key: certificate.key, cert: certificate.cert });
    const refused = await sendFinalLetter(settings(server.port, { security: 'tls' }), letter(), FAST);
    expect(refused.ok).toBe(false);
    const allowed = await sendFinalLetter(
      settings(server.port, { security: 'tls', allowSelfSigned: true }),
      letter(),
      FAST,
    );
    expect(allowed.ok).toBe(true);
    expect(server.received).toHaveLength(1);
  });
});

describe('checkSmtp', () => {
  it('answers ok for good settings and the reason for bad ones', async () => {
    const server = await startServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      onAuth(auth, _session, callback) {
        if (auth.password === 'right') callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Bad credentials'), { responseCode: 535 }));
      },
    });
    expect(await checkSmtp(settings(server.port, { username: 'registry', password: 'right' }), FAST)).toEqual(
      {
        ok: true,
      },
    );
    const wrong = await checkSmtp(settings(server.port, { username: 'registry', password: 'nope' }), FAST);
    expect(wrong).toMatchObject({ ok: false, code: 'EAUTH' });
    if (!wrong.ok) expect(wrong.error).toContain('Bad credentials');

    const down = await checkSmtp(settings(await closedPort()), FAST);
    expect(down.ok).toBe(false);
    if (!down.ok) expect(down.error).toContain('ECONNREFUSED');
    expect(server.received).toHaveLength(0);
  });
});

describe('smtpSettingsSchema', () => {
  const good = {
    host: 'smtp.example.org',
    port: 587,
    security: 'starttls',
    username: 'registry',
    password: 'secret',
    fromAddress: 'registry@example.org',
    fromName: 'سجل',
  };

  it('accepts good settings', () => {
    expect(smtpSettingsSchema.safeParse(good).success).toBe(true);
    expect(
      smtpSettingsSchema.safeParse({ ...good, host: '10.0.0.5', username: null, password: null }).success,
    ).toBe(true);
    expect(smtpSettingsSchema.safeParse({ ...good, host: '::1', allowSelfSigned: true }).success).toBe(true);
  });

  it('rejects a bad port, a bad host, a sender that is not an e-mail address, an unknown security', () => {
    for (const port of [0, 65536, 25.5, '25'])
      expect(smtpSettingsSchema.safeParse({ ...good, port }).success).toBe(false);
    for (const host of ['', 'http://smtp.example.org', 'smtp example', 'a'.repeat(254)])
      expect(smtpSettingsSchema.safeParse({ ...good, host }).success).toBe(false);
    for (const fromAddress of ['registry', 'registry@', 'a b@example.org', 'x@example.org, y@example.org'])
      expect(smtpSettingsSchema.safeParse({ ...good, fromAddress }).success).toBe(false);
    expect(smtpSettingsSchema.safeParse({ ...good, security: 'ssl' }).success).toBe(false);
  });
});
