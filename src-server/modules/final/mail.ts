/**
 * Sending a letter's final PDF by e-mail (issue 27): a short bilingual covering message (Arabic first)
 * with the PDF attached, over the organisation's SMTP server, plus the administrator's "test" check.
 *
 * One connection per message, no pool: final letters go out one at a time, at approval, and a pool
 * would hold a connection (and the server's patience) open for nothing.
 *
 * SMTP failures never throw: the caller records the outcome on the letter and may retry, so a failure is
 * an answer (`ok: false`) with a readable reason, nodemailer's code, and whether retrying is pointless.
 */
import type { SMTPTransportOptions } from 'nodemailer';

/** nodemailer, loaded the first time a message is sent or the settings checked (it is not small). */
const loadMailer = async () => (await import('nodemailer')).default;
import { z } from 'zod';

export interface SmtpSettings {
  host: string;
  port: number;
  /**
   * `tls`: TLS from the first byte (usually port 465). `starttls`: plain connection that must upgrade
   * (usually 587); a server that does not offer STARTTLS is refused. `none`: no requirement, but the
   * connection still upgrades when the server offers STARTTLS, so the password only goes in clear to a
   * server that offers no TLS at all. The certificate is checked on that upgrade too (see allowSelfSigned).
   */
  security: 'tls' | 'starttls' | 'none';
  /** null: the server takes mail without signing in. */
  username: string | null;
  password: string | null;
  fromAddress: string;
  fromName: string | null;
  /**
   * Accept the server's certificate without checking it (self-signed, private CA, or a name that does not
   * match). Off by default: an internal server with its own certificate needs the administrator to say so.
   * The traffic is still encrypted, but an impostor on the network could read the password.
   */
  allowSelfSigned?: boolean;
}

export interface FinalLetterMail {
  /** The receiver's address (one address). */
  to: string;
  number: string;
  /** The letter's subject, only when it may be shown (the caller decides); null leaves it out. */
  subjectAr: string | null;
  subjectEn: string | null;
  organisation: { ar: string; en: string };
  /** Where the receiver can check the letter; null leaves the sentence out. */
  verifyUrl: string | null;
  /** The final PDF. */
  attachment: { fileName: string; bytes: Uint8Array };
}

export type SendOutcome =
  | { ok: true; messageId: string; response: string }
  | { ok: false; error: string; code: string | null; permanent: boolean };

export type CheckOutcome = { ok: true } | { ok: false; error: string; code: string | null };

export interface MailOptions {
  /** The limit for connecting, for the server's greeting and for any silence after (ms, default 20 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

const hostSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .refine(
    (host) => z.hostname().safeParse(host).success || z.ipv6().safeParse(host).success,
    'must be a host name or an IP address',
  );

/** The SMTP settings as the administrator saves them. */
export const smtpSettingsSchema: z.ZodType<SmtpSettings> = z.object({
  host: hostSchema,
  port: z.number().int().min(1).max(65535),
  security: z.enum(['tls', 'starttls', 'none']),
  username: z.string().min(1).max(320).nullable(),
  password: z.string().max(1024).nullable(),
  fromAddress: z.email().max(254),
  fromName: z.string().trim().min(1).max(200).nullable(),
  allowSelfSigned: z.boolean().optional(),
});

function transportOptions(smtp: SmtpSettings, options: MailOptions | undefined): SMTPTransportOptions {
  const timeout = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    // 'starttls' refuses a server that does not upgrade; 'none' still upgrades when offered, and does not
    // fall back to plain text when the upgrade fails (no opportunisticTLS), which an attacker could cause.
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: false,
    auth: smtp.username === null ? undefined : { user: smtp.username, pass: smtp.password ?? '' },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    tls: { rejectUnauthorized: smtp.allowSelfSigned !== true, minVersion: 'TLSv1.2' },
  };
}

/** What nodemailer puts on its errors (NodemailerError), read without trusting the shape. */
interface SmtpErrorFields {
  message: string;
  code: string | null;
  originalCode: string | null;
  responseCode: number | null;
  permanent: boolean | null;
}

function errorFields(err: unknown): SmtpErrorFields {
  const record: Record<string, unknown> = typeof err === 'object' && err !== null ? { ...err } : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    message: err instanceof Error ? err.message : String(err),
    code: text(record.code),
    originalCode: text(record.originalCode),
    responseCode: typeof record.responseCode === 'number' ? record.responseCode : null,
    permanent: typeof record.permanent === 'boolean' ? record.permanent : null,
  };
}

function readableError(fields: SmtpErrorFields): string {
  // The system's own code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT…) says more than ESOCKET or ETLS.
  const detail =
    fields.originalCode !== null && !fields.message.includes(fields.originalCode)
      ? ` (${fields.originalCode})`
      : '';
  return fields.message + detail;
}

function failure(err: unknown): { ok: false; error: string; code: string | null; permanent: boolean } {
  const fields = errorFields(err);
  const permanent =
    fields.permanent ??
    (fields.responseCode !== null && fields.responseCode >= 500 && fields.responseCode < 600);
  return { ok: false, error: readableError(fields), code: fields.code, permanent };
}

/** One line for a header: no line breaks, no runs of spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Only web addresses become links: an escaped `javascript:` address is still a script. */
function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** The subject line: `<number> — <organisation ar> | <organisation en>`, then the letter's subject when given. */
export function mailSubject(mail: FinalLetterMail): string {
  const subjects = [mail.subjectAr, mail.subjectEn].filter((s): s is string => s !== null && s.trim() !== '');
  const head = `${mail.number} — ${mail.organisation.ar} | ${mail.organisation.en}`;
  return oneLine(subjects.length === 0 ? head : `${head} — ${subjects.join(' | ')}`);
}

interface CoverLines {
  intro: string;
  numberLabel: string;
  subjectLabel: string;
  verifyLabel: string;
}

const ARABIC: CoverLines = {
  intro: 'مرفق بهذه الرسالة خطاب من {org}.',
  numberLabel: 'رقم الخطاب:',
  subjectLabel: 'الموضوع:',
  verifyLabel: 'للتحقق من صحة الخطاب:',
};

const ENGLISH: CoverLines = {
  intro: 'Attached to this message is a letter from {org}.',
  numberLabel: 'Letter number:',
  subjectLabel: 'Subject:',
  verifyLabel: 'To verify the letter:',
};

interface CoverFacts {
  org: string;
  number: string;
  subject: string | null;
  verifyUrl: string | null;
}

function coverText(lines: CoverLines, facts: CoverFacts): string {
  return [
    lines.intro.replace('{org}', facts.org),
    `${lines.numberLabel} ${facts.number}`,
    facts.subject === null ? null : `${lines.subjectLabel} ${facts.subject}`,
    facts.verifyUrl === null ? null : `${lines.verifyLabel} ${facts.verifyUrl}`,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
}

function coverHtml(lines: CoverLines, facts: CoverFacts, lang: 'ar' | 'en'): string {
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const align = lang === 'ar' ? 'right' : 'left';
  // The number and the address are Latin inside Arabic text: isolated left-to-right so they keep their order.
  const ltr = (html: string) => `<span dir="ltr">${html}</span>`;
  const [before, after] = lines.intro.split('{org}') as [string, string];
  const url = facts.verifyUrl;
  const link =
    url === null
      ? ''
      : isWebUrl(url)
        ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`
        : escapeHtml(url);
  return [
    `<div dir="${dir}" lang="${lang}" style="text-align:${align}">`,
    `<p>${escapeHtml(before)}<strong>${escapeHtml(facts.org)}</strong>${escapeHtml(after)}</p>`,
    `<p>${escapeHtml(lines.numberLabel)} ${ltr(escapeHtml(facts.number))}</p>`,
    facts.subject === null ? '' : `<p>${escapeHtml(lines.subjectLabel)} ${escapeHtml(facts.subject)}</p>`,
    url === null ? '' : `<p>${escapeHtml(lines.verifyLabel)} ${ltr(link)}</p>`,
    '</div>',
  ].join('');
}

/** The covering message's text and HTML parts, Arabic first. */
export function coverMessage(mail: FinalLetterMail): { text: string; html: string } {
  const present = (s: string | null) => (s === null || s.trim() === '' ? null : s.trim());
  const ar: CoverFacts = {
    org: mail.organisation.ar,
    number: mail.number,
    subject: present(mail.subjectAr),
    verifyUrl: mail.verifyUrl,
  };
  const en: CoverFacts = { ...ar, org: mail.organisation.en, subject: present(mail.subjectEn) };
  const text = `${coverText(ARABIC, ar)}\n\n----\n\n${coverText(ENGLISH, en)}\n`;
  const html =
    '<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(mailSubject(mail))}</title></head>` +
    '<body dir="rtl" style="font-family:Tahoma,Arial,sans-serif;font-size:15px;line-height:1.6">' +
    coverHtml(ARABIC, ar, 'ar') +
    '<hr>' +
    coverHtml(ENGLISH, en, 'en') +
    '</body></html>';
  return { text, html };
}

/**
 * Builds the bilingual covering message (Arabic first: a dir=rtl HTML part and a plain-text part, both
 * languages) with the PDF attached, and sends it. Never throws for SMTP failures: answers `ok: false` with
 * the reason (connection refused, sign-in failed, recipient rejected…); `permanent` is true for 5xx answers.
 */
export async function sendFinalLetter(
  smtp: SmtpSettings,
  mail: FinalLetterMail,
  options?: MailOptions,
): Promise<SendOutcome> {
  const { text, html } = coverMessage(mail);
  return deliver(
    smtp,
    {
      to: mail.to,
      subject: mailSubject(mail),
      text,
      html,
      attachments: [
        {
          filename: mail.attachment.fileName,
          content: Buffer.from(
            mail.attachment.bytes.buffer,
            mail.attachment.bytes.byteOffset,
            mail.attachment.bytes.byteLength,
          ),
          contentType: 'application/pdf',
        },
      ],
    },
    options,
  );
}

/**
 * Sends one message to one checked address (a string with a comma would otherwise be read by nodemailer
 * as several receivers); never throws for SMTP failures.
 */
async function deliver(
  smtp: SmtpSettings,
  message: PlainMail & { attachments?: { filename: string; content: Buffer; contentType: string }[] },
  options?: MailOptions,
): Promise<SendOutcome> {
  if (!z.email().safeParse(message.to).success) {
    return { ok: false, error: `Not an e-mail address: ${message.to}`, code: 'EENVELOPE', permanent: true };
  }
  const transporter = (await loadMailer()).createTransport(transportOptions(smtp, options));
  try {
    const info = await transporter.sendMail({
      from: { name: smtp.fromName ?? '', address: smtp.fromAddress },
      ...message,
    });
    // With one receiver a refusal is an error already; this guards against a server that says nothing.
    if (info.accepted.length === 0)
      return {
        ok: false,
        error: `The server did not accept ${message.to}`,
        code: 'EENVELOPE',
        permanent: false,
      };
    return { ok: true, messageId: info.messageId, response: info.response };
  } catch (err) {
    return failure(err);
  } finally {
    transporter.close();
  }
}

/** Checks the SMTP settings (connect, upgrade as configured, sign in) for the administrator's "test" button. */
export async function checkSmtp(smtp: SmtpSettings, options?: MailOptions): Promise<CheckOutcome> {
  const transporter = (await loadMailer()).createTransport(transportOptions(smtp, options));
  try {
    await transporter.verify();
    return { ok: true };
  } catch (err) {
    const { error, code } = failure(err);
    return { ok: false, error, code };
  } finally {
    transporter.close();
  }
}

/** A message without attachments (the notifications' daily digest): one checked address, text and HTML. */
export interface PlainMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends a plain message through the organisation's SMTP server; never throws for SMTP failures. */
export function sendPlainMail(
  smtp: SmtpSettings,
  mail: PlainMail,
  options?: MailOptions,
): Promise<SendOutcome> {
  return deliver(smtp, mail, options);
}
