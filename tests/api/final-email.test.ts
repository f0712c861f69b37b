/**
 * E-mailing an outgoing letter's final PDF (issue 27), over HTTP with the background worker running and a
 * real SMTP server (smtp-server on an ephemeral port of 127.0.0.1, collecting what it receives): the SMTP
 * settings are the administrator's and their password never comes back; the archive office sends the
 * final PDF to a receiver's directory address and to typed ones, byte for byte, each dispatch recording
 * its message id; with the server down the dispatch is recorded failed, and a retry once it is back sends
 * it; only an approved outgoing letter with its final PDF made, only by its archive office, only with
 * SMTP set; the subject line leaves out the subject of a letter above the lowest security level.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentType, decodeWords, leaves, parseMime } from '../support/mime';
import { actor, type Actor } from './support/correspondence';
import {
  approvedLetter as approved,
  finalWorld,
  madeFinal as made,
  submittedLetter,
  type FinalWorld,
} from './support/final';
import { call, makeRole, startHarness, type Harness } from './support/harness';

const SUBJECT = 'الرد على طلب الميزانية';
const SMTP_PASSWORD = 'Smtp-S3cret-Pässword-7731';
const RECEIVER_EMAIL = 'registry@mofa.example.gov';

let h: Harness;
let admin: Actor;
let author: Actor;
let minister: Actor;
let clerk: Actor;
let w: FinalWorld;
const dataDir = mkdtempSync(join(tmpdir(), 'sijill-final-email-'));

/** Every answer's body, to look for the SMTP password in. */
const answers: string[] = [];
const doc = (id: number) => `/correspondence/documents/${id}`;
async function send(who: Actor, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await call(h, { method, url, token: who.token, ...(body !== undefined ? { body } : {}) });
  answers.push(JSON.stringify(res.json ?? null));
  return res;
}
const get = (who: Actor, url: string) => send(who, 'GET', url);
const post = (who: Actor, url: string, body?: unknown) => send(who, 'POST', url, body);
const put = (who: Actor, url: string, body: unknown) => send(who, 'PUT', url, body);

// ------------------------------------------------------------------ a real SMTP server

interface Received {
  rcptTo: string[];
  raw: Buffer;
}

interface TestServer {
  port: number;
  received: Received[];
  /** The passwords it was signed in with. */
  passwords: string[];
  close(): Promise<void>;
}

async function startSmtp(port = 0): Promise<TestServer> {
  const received: Received[] = [];
  const passwords: string[] = [];
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    // Plain text on the loopback: no certificate to trust, and sign-in allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    onAuth(auth, _session, callback) {
      passwords.push(auth.password ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback(null, 'Queued as TEST');
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as { port: number }).port,
    received,
    passwords,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ------------------------------------------------------------------ letters

/** An approved outgoing letter (or memo) whose final PDF the worker makes (support/final.ts); answers its id. */
async function approvedLetter(
  options: { memo?: boolean; securityLevelId?: number; pdf?: null; approve?: boolean } = {},
): Promise<number> {
  const { approve, ...rest } = options;
  if (approve === false) return (await submittedLetter(h, w, rest)).id;
  return (await approved(h, w, rest)).id;
}

const madeFinal = (id: number) => made(h, clerk, id);

interface Dispatch {
  id: number;
  address: string;
  department: { id: number } | null;
  state: string;
  messageId: string | null;
  error: string | null;
  errorCode: string | null;
  attempts: number;
  sentAt: string | null;
}

/** The document's dispatches once none is queued. */
async function settled(id: number): Promise<Dispatch[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const items = (await get(clerk, `${doc(id)}/email-dispatches`)).json.data.items as Dispatch[];
    if (items.every((d) => d.state !== 'queued')) return items;
    if (Date.now() > deadline) throw new Error('the e-mails were not sent within a minute');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function smtpBody(port: number, extra: Record<string, unknown> = {}) {
  return {
    host: '127.0.0.1',
    port,
    security: 'none',
    username: 'archive',
    password: SMTP_PASSWORD,
    fromAddress: 'archive@mof.example.gov',
    fromName: 'وزارة المالية — Ministry of Finance',
    allowSelfSigned: false,
    ...extra,
  };
}

let smtp: TestServer;

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1', DATA_DIR: dataDir, VERIFY_RATE_LIMIT_PER_MINUTE: '0' });
  w = await finalWorld(h);
  ({ admin, author, minister, clerk } = w);
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await h?.close();
});

describe('the receivers’ e-mail in the directory', () => {
  it('is an optional, checked address of a department', async () => {
    const bad = await put(admin, `/ec/departments/${w.receiver}`, { email: 'not an address' });
    expect(bad.status).toBe(400);
    const set = await put(admin, `/ec/departments/${w.receiver}`, { email: RECEIVER_EMAIL });
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json.data.email).toBe(RECEIVER_EMAIL);
    expect((await get(admin, `/ec/departments/${w.deptB}`)).json.data.email).toBeNull();
    const created = await post(admin, '/ec/departments', {
      nameAr: 'وزارة التعليم',
      nameEn: 'Ministry of Education',
      type: 'external',
      email: 'mail@moe.example.gov',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.data.email).toBe('mail@moe.example.gov');
    const cleared = await put(admin, `/ec/departments/${created.json.data.id}`, { email: null });
    expect(cleared.json.data.email).toBeNull();
  });
});

describe('the SMTP settings', () => {
  it('are refused until set: no check, no dispatch', async () => {
    expect((await get(admin, '/correspondence/letter-settings')).json.data.smtp).toBeNull();
    const check = await post(admin, '/correspondence/letter-settings/smtp/check');
    expect(check.status).toBe(409);
    expect(check.json.code).toBe('final.email.noSmtp');
    const id = await approvedLetter();
    expect((await madeFinal(id)).state).toBe('done');
    const list = await get(clerk, `${doc(id)}/email-dispatches`);
    expect(list.json.data).toMatchObject({ items: [], mayManage: true, smtpReady: false });
    const refused = await post(clerk, `${doc(id)}/email-dispatches`, {
      recipients: [{ address: 'a@example.org' }],
    });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('final.email.noSmtp');
  });

  it('are the administrator’s, validated, the password sealed and never returned', async () => {
    expect((await put(clerk, '/correspondence/letter-settings/smtp', smtpBody(smtp.port))).status).toBe(403);
    expect((await post(clerk, '/correspondence/letter-settings/smtp/check')).status).toBe(403);
    for (const wrong of [
      { host: 'bad host name!' },
      { port: 70000 },
      { security: 'ssl' },
      { fromAddress: 'nobody' },
      { extra: true },
    ]) {
      const res = await put(admin, '/correspondence/letter-settings/smtp', smtpBody(smtp.port, wrong));
      expect(res.status, JSON.stringify(wrong)).toBe(400);
    }
    const saved = await put(admin, '/correspondence/letter-settings/smtp', smtpBody(smtp.port));
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.data.smtp).toEqual({
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      username: 'archive',
      fromAddress: 'archive@mof.example.gov',
      fromName: 'وزارة المالية — Ministry of Finance',
      allowSelfSigned: false,
      passwordSet: true,
    });
    // Saved again without a password: the stored one is kept.
    const kept = await put(admin, '/correspondence/letter-settings/smtp', {
      ...smtpBody(smtp.port),
      password: undefined,
    });
    expect(kept.json.data.smtp.passwordSet).toBe(true);
    const [row] = await h.query<{ smtp_password_sealed: string; smtp: object }>(
      'select smtp_password_sealed, smtp from organisation_settings',
    );
    expect(Buffer.from(row!.smtp_password_sealed, 'base64').toString('latin1')).not.toContain('S3cret');
    expect(JSON.stringify(row!.smtp)).not.toContain(SMTP_PASSWORD);
    const audits = await h.query<{ details: object }>(
      `select details from audit_log where action like 'letterSettings.smtp%'`,
    );
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain(SMTP_PASSWORD);

    // The check signs in with the unsealed password; a failure is an answer, not an error.
    const check = await post(admin, '/correspondence/letter-settings/smtp/check');
    expect(check.status, JSON.stringify(check.json)).toBe(200);
    expect(check.json.data).toEqual({ ok: true, error: null, code: null });
    expect(smtp.passwords).toContain(SMTP_PASSWORD);
  });
});

describe('sending the final letter by e-mail', () => {
  it('sends it to the receiver’s directory address and a typed one, byte for byte, recording the message id', async () => {
    const id = await approvedLetter();
    const f = await madeFinal(id);
    expect(f.state).toBe('done');
    const list = (await get(clerk, `${doc(id)}/email-dispatches`)).json.data;
    expect(list).toMatchObject({ items: [], mayManage: true, smtpReady: true });
    expect(list.receivers).toEqual([expect.objectContaining({ id: w.receiver, email: RECEIVER_EMAIL })]);
    const before = smtp.received.length;
    const sent = await post(clerk, `${doc(id)}/email-dispatches`, {
      recipients: [
        { departmentId: w.receiver, address: RECEIVER_EMAIL },
        { address: 'Minister.Office@moh.example.gov' },
        // The same address again (another case): sent once.
        { address: 'minister.office@MOH.example.gov' },
      ],
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    expect(sent.json.data.items).toHaveLength(2);
    const items = await settled(id);
    expect(items.map((d) => d.state)).toEqual(['sent', 'sent']);
    for (const d of items) {
      expect(d.messageId).toMatch(/^<.+@.+>$/);
      expect(d.sentAt).not.toBeNull();
      expect(d.attempts).toBe(1);
    }
    expect(items.find((d) => d.address === RECEIVER_EMAIL)?.department?.id).toBe(w.receiver);

    const messages = smtp.received.slice(before);
    expect(messages.map((m) => m.rcptTo[0]).sort()).toEqual(
      ['Minister.Office@moh.example.gov', RECEIVER_EMAIL].sort(),
    );
    const number = (await get(clerk, doc(id))).json.data.docNumber as string;
    for (const message of messages) {
      const root = parseMime(message.raw);
      const parts = leaves(root);
      const pdf = parts.find((p) => contentType(p) === 'application/pdf');
      expect(pdf).toBeDefined();
      expect(sha256(pdf!.body)).toBe(f.sha256);
      expect(decodeWords(pdf!.headers.get('content-disposition') ?? '')).toContain(`${number}.pdf`);
      const subject = decodeWords(root.headers.get('subject') ?? '');
      expect(subject).toContain(number);
      expect(subject).toContain('وزارة المالية');
      expect(subject).toContain(SUBJECT);
      const html = parts.find((p) => contentType(p) === 'text/html')?.body.toString('utf8') ?? '';
      expect(html).toContain('dir="rtl"');
      expect(html).toContain('Ministry of Finance');
    }
    // The message id of each dispatch is the one the server received.
    for (const d of items) {
      const message = messages.find((m) => m.rcptTo[0] === d.address)!;
      expect(parseMime(message.raw).headers.get('message-id')).toBe(d.messageId);
    }
    const events = (await get(clerk, `${doc(id)}/timeline`)).json.data as {
      event: string;
      details: object;
    }[];
    expect(events.filter((e) => e.event === 'emailSent')).toHaveLength(2);
    const audits = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'documents.emailQueued' and target_id = '${id}'`,
    );
    expect(audits[0]!.n).toBe(1);
  });

  it('records a failure when the server is down, and sends it on retry once it is back', async () => {
    const id = await approvedLetter();
    await madeFinal(id);
    const port = smtp.port;
    await smtp.close();
    const sent = await post(clerk, `${doc(id)}/email-dispatches`, {
      recipients: [{ departmentId: w.receiver, address: RECEIVER_EMAIL }],
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    const [failed] = await settled(id);
    expect(failed).toMatchObject({ state: 'failed', messageId: null, sentAt: null, attempts: 1 });
    expect(failed!.error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed!.errorCode).toBeTruthy();
    const events = (await get(clerk, `${doc(id)}/timeline`)).json.data as { event: string }[];
    expect(events.map((e) => e.event)).toContain('emailFailed');
    // The check says so too, as an answer.
    const check = await post(admin, '/correspondence/letter-settings/smtp/check');
    expect(check.status).toBe(200);
    expect(check.json.data.ok).toBe(false);
    expect(check.json.data.error).toBeTruthy();

    // Not retried on its own; only a failed one can be retried, by its archive office.
    expect((await post(author, `${doc(id)}/email-dispatches/${failed!.id}/retry`)).status).toBe(403);
    smtp = await startSmtp(port);
    const retried = await post(clerk, `${doc(id)}/email-dispatches/${failed!.id}/retry`);
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    const [again] = await settled(id);
    expect(again).toMatchObject({ id: failed!.id, state: 'sent', error: null, errorCode: null, attempts: 2 });
    expect(smtp.received).toHaveLength(1);
    const twice = await post(clerk, `${doc(id)}/email-dispatches/${failed!.id}/retry`);
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('final.email.notFailed');
    expect((await post(clerk, `${doc(id)}/email-dispatches/999999/retry`)).status).toBe(404);
  });

  it('is for the archive office only; the author sees the dispatches', async () => {
    const id = await approvedLetter();
    await madeFinal(id);
    const body = { recipients: [{ address: 'someone@example.org' }] };
    expect((await post(author, `${doc(id)}/email-dispatches`, body)).status).toBe(403);
    expect((await post(minister, `${doc(id)}/email-dispatches`, body)).status).toBe(403);
    const seen = await get(author, `${doc(id)}/email-dispatches`);
    expect(seen.status).toBe(200);
    expect(seen.json.data.mayManage).toBe(false);
    const outsider = await actor(h, await makeRole(h, {}), null);
    expect((await get(outsider, `${doc(id)}/email-dispatches`)).status).toBe(404);
    expect((await post(outsider, `${doc(id)}/email-dispatches`, body)).status).toBe(404);
  });

  it('only for an outgoing letter whose final PDF is made and not cancelled', async () => {
    const body = { recipients: [{ address: 'someone@example.org' }] };
    const noPdf = await approvedLetter({ pdf: null });
    expect((await madeFinal(noPdf)).state).toBe('failed');
    const notDone = await post(clerk, `${doc(noPdf)}/email-dispatches`, body);
    expect(notDone.status).toBe(409);
    expect(notDone.json.code).toBe('final.email.notReady');
    const memo = await approvedLetter({ memo: true });
    await madeFinal(memo);
    const forMemo = await post(clerk, `${doc(memo)}/email-dispatches`, body);
    expect(forMemo.status).toBe(409);
    expect(forMemo.json.code).toBe('final.email.notReady');
    expect((await get(clerk, `${doc(memo)}/email-dispatches`)).json.data.mayManage).toBe(false);
    const draft = await approvedLetter({ approve: false });
    const forDraft = await post(admin, `${doc(draft)}/email-dispatches`, body);
    expect(forDraft.status).toBe(409);
    expect(forDraft.json.code).toBe('final.email.notReady');
    const id = await approvedLetter();
    await madeFinal(id);
    expect((await post(clerk, `${doc(id)}/final/cancel`, { reason: 'أُرسل خطأً' })).status).toBe(200);
    const cancelled = await post(clerk, `${doc(id)}/email-dispatches`, body);
    expect(cancelled.status).toBe(409);
    expect(cancelled.json.code).toBe('final.cancelled');
  });

  it('refuses bad addresses and lists, and a department that is not a receiver', async () => {
    const id = await approvedLetter();
    await madeFinal(id);
    const before = (await h.query<{ n: number }>('select count(*)::int as n from email_dispatches'))[0]!.n;
    for (const body of [
      { recipients: [] },
      { recipients: [{ address: 'not-an-address' }] },
      { recipients: [{ address: 'a@example.org, b@example.org' }] },
      { recipients: [{ address: 'a@example.org\r\nBcc: c@example.org' }] },
      { recipients: [{ address: `${'x'.repeat(250)}@example.org` }] },
      { recipients: Array.from({ length: 21 }, (_, i) => ({ address: `r${i}@example.org` })) },
      { recipients: [{ address: 'a@example.org', cc: 'b@example.org' }] },
      { recipients: [{ departmentId: w.deptB, address: 'a@example.org' }] },
      {},
    ]) {
      const res = await post(clerk, `${doc(id)}/email-dispatches`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const after = (await h.query<{ n: number }>('select count(*)::int as n from email_dispatches'))[0]!.n;
    expect(after).toBe(before);
  });

  it('leaves the subject out of the subject line for a secret letter', async () => {
    for (const who of [author, minister, clerk])
      await h.query(
        `insert into user_clearances (user_id, security_level_id) values (${who.userId}, ${w.secret})
           on conflict (user_id) do update set security_level_id = excluded.security_level_id`,
      );
    const id = await approvedLetter({ securityLevelId: w.secret });
    await madeFinal(id);
    const before = smtp.received.length;
    const sent = await post(clerk, `${doc(id)}/email-dispatches`, {
      recipients: [{ address: 'x@example.org' }],
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    expect((await settled(id))[0]!.state).toBe('sent');
    const [message] = smtp.received.slice(before);
    const root = parseMime(message!.raw);
    const subject = decodeWords(root.headers.get('subject') ?? '');
    expect(subject).toContain((await get(clerk, doc(id))).json.data.docNumber as string);
    expect(subject).not.toContain(SUBJECT);
    const bodies = leaves(root)
      .filter((p) => contentType(p).startsWith('text/'))
      .map((p) => p.body.toString('utf8'))
      .join('\n');
    expect(bodies).not.toContain(SUBJECT);
  });

  it('the removed settings stop any new dispatch; the password never appeared in an answer', async () => {
    const removed = await send(admin, 'DELETE', '/correspondence/letter-settings/smtp');
    expect(removed.status).toBe(200);
    expect(removed.json.data.smtp).toBeNull();
    const [row] = await h.query<{ smtp_password_sealed: string | null }>(
      'select smtp_password_sealed from organisation_settings',
    );
    expect(row!.smtp_password_sealed).toBeNull();
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.includes(SMTP_PASSWORD) || a.includes('S3cret'))).toEqual([]);
  });
});
