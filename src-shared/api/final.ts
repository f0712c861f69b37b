/**
 * The letter that leaves (issue 27): an approved outgoing letter's or memo's final PDF (stamped, and
 * signed with the organisation's certificate when one is set), the organisation's letter settings, and
 * the public verification page's link. Schemas and endpoints, shared by the server and the client.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { namedRefSchema } from './directory';
import { endpoint, fileAnswer } from './endpoint';
import { emailField, idField, idParamsSchema, refIdField, text as textField } from './fields';

export const DIGIT_STYLES = ['arabic-indic', 'western'] as const;
export const STAMP_CORNERS = ['top-start', 'top-end', 'bottom-start', 'bottom-end'] as const;
export const FINAL_STATES = ['pending', 'done', 'failed'] as const;
/**
 * A final PDF's state as the screens see it: `none` for a letter approved before final PDFs existed
 * (an upgrade), which its archive office may have made.
 */
export const FINAL_VIEW_STATES = ['none', ...FINAL_STATES] as const;

/** What may be shown of a certificate (never its key). */
export const certificateSummarySchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  sha256Fingerprint: z.string(),
  chainLength: z.number().int(),
});
export type CertificateSummary = z.infer<typeof certificateSummarySchema>;

/** A document's final PDF, as its screen shows it. */
export const finalLetterSchema = z.object({
  state: z.enum(FINAL_VIEW_STATES),
  signed: z.boolean(),
  sha256: z.string().nullable(),
  size: z.number().int().nullable(),
  pages: z.number().int().nullable(),
  madeAt: z.string().nullable(),
  /** The public verification page's address, when the organisation has set its public address. */
  verifyUrl: z.string().nullable(),
  /** The certificate it was signed with. */
  certificate: certificateSummarySchema.nullable(),
  /** Why it could not be made: an error catalogue key. */
  error: z.string().nullable(),
  cancelled: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /** Whether the caller may cancel it or make it again (its archive office, an administrator). */
  mayManage: z.boolean(),
});
export type FinalLetter = z.infer<typeof finalLetterSchema>;

const text = (max: number) => z.string().trim().max(max);

// ---------------------------------------------------------------- SMTP (the e-mail dispatch's server)

/** How the connection to the SMTP server is secured (src-server/modules/final/mail.ts says what each does). */
export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;

/** The organisation's SMTP server as the settings screen shows it: never the password, only whether one is set. */
export const smtpSummarySchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  username: z.string().nullable(),
  fromAddress: z.string(),
  fromName: z.string().nullable(),
  allowSelfSigned: z.boolean(),
  passwordSet: z.boolean(),
});
export type SmtpSummary = z.infer<typeof smtpSummarySchema>;

/**
 * PUT /correspondence/letter-settings/smtp. The same rules as mail.ts `smtpSettingsSchema` (which the
 * renderer cannot import); `password` omitted keeps the stored one, null (or empty) clears it.
 */
export const smtpRequestSchema = z
  .object({
    host: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .refine(
        (host) => z.hostname().safeParse(host).success || z.ipv6().safeParse(host).success,
        'validation.format',
      ),
    port: z.number().int().min(1).max(65535),
    security: z.enum(SMTP_SECURITY),
    username: z.string().trim().pipe(textField(1, 320)).nullable(),
    password: z.string().max(1024).nullable().optional(),
    fromAddress: emailField,
    fromName: z.string().trim().pipe(textField(1, 200)).nullable(),
    allowSelfSigned: z.boolean().default(false),
  })
  .strict();
export type SmtpRequest = z.input<typeof smtpRequestSchema>;
export type SmtpRequestParsed = z.output<typeof smtpRequestSchema>;

/** POST /correspondence/letter-settings/smtp/check: whether the stored settings reach the server. */
export const smtpCheckSchema = z.object({
  ok: z.boolean(),
  /** The server's or the connection's own words (English, as the SMTP server or the system says them). */
  error: z.string().nullable(),
  /** nodemailer's code: ECONNECTION, EAUTH, ETLS, ESOCKET, ETIMEDOUT… */
  code: z.string().nullable(),
});
export type SmtpCheck = z.infer<typeof smtpCheckSchema>;

// ---------------------------------------------------------------- e-mail dispatches

export const EMAIL_DISPATCH_STATES = ['queued', 'sent', 'failed'] as const;

/** One sending of a final letter to one address. */
export const emailDispatchSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  /** The receiver it was sent to, when the address came from the directory. */
  department: namedRefSchema.nullable(),
  state: z.enum(EMAIL_DISPATCH_STATES),
  /** The Message-ID the SMTP server accepted. */
  messageId: z.string().nullable(),
  /** Why the last attempt failed: the SMTP server's or the connection's words, or an error key (final.*). */
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  attempts: z.number().int(),
  sentBy: namedRefSchema.nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type EmailDispatch = z.infer<typeof emailDispatchSchema>;

/** GET /correspondence/documents/{id}/email-dispatches. */
export const emailDispatchesSchema = z.object({
  /** Newest first. */
  items: z.array(emailDispatchSchema),
  /** The document's receivers with their e-mail address from the directory (null: none recorded). */
  receivers: z.array(namedRefSchema.extend({ email: z.string().nullable() })),
  /** Whether the caller may send (its archive office, an administrator). */
  mayManage: z.boolean(),
  /** Whether the organisation's SMTP server is set. */
  smtpReady: z.boolean(),
});
export type EmailDispatches = z.infer<typeof emailDispatchesSchema>;

/** POST /correspondence/documents/{id}/email-dispatches: one to twenty addresses, each sent on its own. */
export const sendEmailRequestSchema = z
  .object({
    recipients: z
      .array(
        z
          .object({
            /** One of the document's receivers, whose address this is. */
            departmentId: refIdField.optional(),
            address: z.string().trim().pipe(emailField),
          })
          .strict(),
      )
      .min(1)
      .max(20),
  })
  .strict();
export type SendEmailRequest = z.input<typeof sendEmailRequestSchema>;

export const emailDispatchParamsSchema = z.object({ id: idField, dispatchId: idField }).strict();

/** The organisation's settings for the letters it sends, as the administrator sees and edits them. */
export const letterSettingsSchema = z.object({
  stampCorner: z.enum(STAMP_CORNERS),
  stampDigits: z.enum(DIGIT_STYLES),
  /** Null: the default heading (صادر / Outgoing; مذكرة داخلية / Internal memo). */
  stampHeadingAr: z.string().nullable(),
  stampHeadingEn: z.string().nullable(),
  verifyBaseUrl: z.string().nullable(),
  certificate: certificateSummarySchema.nullable(),
  /** The SMTP server final letters are e-mailed through; null: not set. */
  smtp: smtpSummarySchema.nullable(),
  updatedAt: z.string(),
});
export type LetterSettings = z.infer<typeof letterSettingsSchema>;

/**
 * An https address without credentials, query or fragment (or http for a server on this machine), e.g.
 * `https://sijill.example.gov` or `https://gov.example/sijill`.
 */
const publicAddress = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^(https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?|http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?)(\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$/,
    'validation.publicAddress',
  );

export const letterSettingsRequestSchema = z
  .object({
    stampCorner: z.enum(STAMP_CORNERS),
    stampDigits: z.enum(DIGIT_STYLES),
    stampHeadingAr: text(60).nullable(),
    stampHeadingEn: text(60).nullable(),
    verifyBaseUrl: publicAddress.nullable(),
  })
  .strict();
export type LetterSettingsRequest = z.infer<typeof letterSettingsRequestSchema>;

/** A PKCS#12 file (base64, at most 64 KiB) and its password. */
export const certificateRequestSchema = z
  .object({
    pkcs12: z
      .string()
      .max(90_000)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'validation.format'),
    password: z.string().max(200),
  })
  .strict();
export type CertificateRequest = z.infer<typeof certificateRequestSchema>;

export const cancelFinalRequestSchema = z.object({ reason: text(500).min(1) }).strict();
export type CancelFinalRequest = z.infer<typeof cancelFinalRequestSchema>;

const tags = ['final letters'] as const;
const settingsAccess = { page: PAGES.letterSettings, permission: 'view' } as const;
const settingsEdit = { page: PAGES.letterSettings, permission: 'edit' } as const;

export const finalEndpoints = {
  finalLetter: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/final',
    params: idParamsSchema,
    response: finalLetterSchema.nullable(),
    access: 'authenticated',
    tags,
    summary:
      "An approved letter's or memo's final PDF: made after the signatory's approval (pending, done or " +
      'failed), signed or not, its SHA-256 and verification address; `none` for one approved before ' +
      'final PDFs existed; null for a document that has none (incoming, not approved)',
  }),
  finalFile: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/final/file',
    params: idParamsSchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: 'authenticated',
    tags,
    summary: "The final PDF's bytes (application/pdf); 404 until it is made",
  }),
  remakeFinal: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/final/remake',
    params: idParamsSchema,
    response: finalLetterSchema,
    access: 'authenticated',
    tags,
    summary:
      'Makes the final PDF again (after a failure, or to sign it with a certificate set since), or for ' +
      'the first time for a letter approved before final PDFs existed: its archive office or an ' +
      'administrator; not for a cancelled letter',
  }),
  cancelFinal: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/final/cancel',
    params: idParamsSchema,
    body: cancelFinalRequestSchema,
    response: finalLetterSchema,
    access: 'authenticated',
    tags,
    summary:
      'Cancels the letter as issued (its archive office or an administrator), with a reason: its ' +
      'verification page says so from then on',
  }),
  letterSettings: endpoint({
    method: 'GET',
    path: '/correspondence/letter-settings',
    response: letterSettingsSchema,
    access: settingsAccess,
    tags,
    summary:
      "The organisation's settings for the letters it sends (the certificate's summary, never its key)",
  }),
  saveLetterSettings: endpoint({
    method: 'PUT',
    path: '/correspondence/letter-settings',
    body: letterSettingsRequestSchema,
    response: letterSettingsSchema,
    access: settingsEdit,
    tags,
    summary: "The stamp's corner, digits and heading, and the public verification address",
  }),
  setCertificate: endpoint({
    method: 'PUT',
    path: '/correspondence/letter-settings/certificate',
    body: certificateRequestSchema,
    response: letterSettingsSchema,
    access: settingsEdit,
    tags,
    summary:
      "The organisation's signing certificate, as a PKCS#12 file (base64) and its password: read and " +
      'checked (wrong password, expired, not yet valid, no key: 422 final.certificate.*), then kept sealed',
  }),
  removeCertificate: endpoint({
    method: 'DELETE',
    path: '/correspondence/letter-settings/certificate',
    response: letterSettingsSchema,
    access: settingsEdit,
    tags,
    summary: 'Removes the signing certificate: letters approved from then on are stamped, not signed',
  }),
  saveSmtp: endpoint({
    method: 'PUT',
    path: '/correspondence/letter-settings/smtp',
    body: smtpRequestSchema,
    response: letterSettingsSchema,
    access: settingsEdit,
    tags,
    summary:
      "The organisation's SMTP server for e-mailing final letters; the password omitted keeps the stored " +
      'one, null clears it; it is kept sealed and never returned',
  }),
  removeSmtp: endpoint({
    method: 'DELETE',
    path: '/correspondence/letter-settings/smtp',
    response: letterSettingsSchema,
    access: settingsEdit,
    tags,
    summary: 'Removes the SMTP settings (and the password): no final letter can be e-mailed until set again',
  }),
  checkSmtp: endpoint({
    method: 'POST',
    path: '/correspondence/letter-settings/smtp/check',
    response: smtpCheckSchema,
    access: settingsEdit,
    tags,
    summary:
      'Tries the stored SMTP settings (connects, secures and signs in; sends nothing): a failure is an ' +
      'answer (ok false, the reason), not an error; 409 final.email.noSmtp when none are set',
  }),
  emailDispatches: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/email-dispatches',
    params: idParamsSchema,
    response: emailDispatchesSchema,
    access: 'authenticated',
    tags,
    summary:
      "A final letter's e-mail dispatches (newest first), its receivers with their directory e-mail, and " +
      'whether the caller may send',
  }),
  sendEmail: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/email-dispatches',
    params: idParamsSchema,
    body: sendEmailRequestSchema,
    response: emailDispatchesSchema,
    status: 201,
    access: 'authenticated',
    tags,
    summary:
      "E-mails an outgoing letter's final PDF, one message per address, in the background (its archive " +
      'office or an administrator): 409 final.email.notReady until the final PDF is made (and for memos), ' +
      'final.cancelled once cancelled, final.email.noSmtp without SMTP settings',
  }),
  retryEmail: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/email-dispatches/:dispatchId/retry',
    params: emailDispatchParamsSchema,
    response: emailDispatchesSchema,
    access: 'authenticated',
    tags,
    summary: 'Sends a failed e-mail dispatch again (409 final.email.notFailed for one that is not failed)',
  }),
};
