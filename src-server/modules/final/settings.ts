/**
 * The organisation's settings for the letters it sends (issue 27): the stamp's corner, digits and
 * heading, the public verification address, and the signing certificate. The certificate (PKCS#12) and
 * its password are checked when uploaded (signature.ts readPkcs12), then sealed with the server's secrets
 * key; only the certificate's summary ever leaves the server. The SMTP server final letters are e-mailed
 * through is kept the same way: its settings in the clear, its password sealed and never returned.
 */
import { sql } from 'drizzle-orm';
import type {
  CertificateRequest,
  CertificateSummary,
  LetterSettings,
  LetterSettingsRequest,
  SmtpCheck,
  SmtpRequestParsed,
  SmtpSummary,
} from '../../../src-shared/api/final';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import { checkSmtp, type SmtpSettings } from './mail';
import { CertificateProblem, loadSecretsKey, openSecret, readPkcs12, sealSecret } from './signature';
import type { DigitStyle, LetterFacts, StampCorner, StampSettings } from './types';

export interface SettingsRow {
  stamp_corner: StampCorner;
  stamp_digits: DigitStyle;
  stamp_heading_ar: string | null;
  stamp_heading_en: string | null;
  verify_base_url: string | null;
  certificate_sealed: string | null;
  certificate_password_sealed: string | null;
  certificate: CertificateSummary | null;
  smtp: StoredSmtp | null;
  smtp_password_sealed: string | null;
  updated_at: Date | string;
}

/** The SMTP settings as stored (organisation_settings.smtp): everything but the password. */
type StoredSmtp = Omit<SmtpSettings, 'password' | 'allowSelfSigned'> & { allowSelfSigned: boolean };

export async function readSettings(db: Tx): Promise<SettingsRow> {
  const [row] = await rowsOf<SettingsRow>(db, sql`select * from organisation_settings where id = 1`);
  if (row) return row;
  // The migration writes the row; a database restored without it gets it back.
  await db.execute(sql`insert into organisation_settings (id) values (1) on conflict do nothing`);
  return readSettings(db);
}

const HEADINGS = {
  outgoing: { ar: 'صادر', en: 'Outgoing' },
  memo: { ar: 'مذكرة داخلية', en: 'Internal memo' },
} as const;

/** The stamp's settings for a letter of `kind`. Letters are written right to left (Arabic first). */
export function stampSettingsOf(row: SettingsRow, kind: LetterFacts['kind']): StampSettings {
  return {
    corner: row.stamp_corner,
    direction: 'rtl',
    digits: row.stamp_digits,
    headingAr: row.stamp_heading_ar ?? HEADINGS[kind].ar,
    headingEn: row.stamp_heading_en ?? HEADINGS[kind].en,
  };
}

const keys = new WeakMap<object, Promise<Uint8Array>>();
/** The server's secrets key (SIJILL_SECRETS_KEY, or a key file in the data directory), read once. */
function secretsKey(ctx: Pick<ServerContext, 'config'>): Promise<Uint8Array> {
  let key = keys.get(ctx);
  if (!key) {
    key = loadSecretsKey(ctx.config.DATA_DIR);
    keys.set(ctx, key);
  }
  return key;
}

/** The unsealed certificate, when one is set. */
export async function secretsOf(
  ctx: ServerContext,
  row: SettingsRow,
): Promise<{ certificate: { pkcs12: Uint8Array; password: string } | null }> {
  if (!row.certificate_sealed || !row.certificate_password_sealed) return { certificate: null };
  const key = await secretsKey(ctx);
  return {
    certificate: {
      pkcs12: openSecret(key, Buffer.from(row.certificate_sealed, 'base64')),
      password: Buffer.from(openSecret(key, Buffer.from(row.certificate_password_sealed, 'base64'))).toString(
        'utf8',
      ),
    },
  };
}

/** The SMTP settings with the password unsealed, when they are set. */
export async function smtpOf(
  ctx: Pick<ServerContext, 'config'>,
  row: SettingsRow,
): Promise<SmtpSettings | null> {
  if (!row.smtp) return null;
  const password = row.smtp_password_sealed
    ? Buffer.from(
        openSecret(await secretsKey(ctx), Buffer.from(row.smtp_password_sealed, 'base64')),
      ).toString('utf8')
    : null;
  return { ...row.smtp, password };
}

function smtpOut(row: SettingsRow): SmtpSummary | null {
  const s = row.smtp;
  if (!s) return null;
  return {
    host: s.host,
    port: s.port,
    security: s.security,
    username: s.username,
    fromAddress: s.fromAddress,
    fromName: s.fromName,
    allowSelfSigned: s.allowSelfSigned,
    passwordSet: row.smtp_password_sealed !== null,
  };
}

function settingsOut(row: SettingsRow): LetterSettings {
  return {
    stampCorner: row.stamp_corner,
    stampDigits: row.stamp_digits,
    stampHeadingAr: row.stamp_heading_ar,
    stampHeadingEn: row.stamp_heading_en,
    verifyBaseUrl: row.verify_base_url,
    certificate: row.certificate,
    smtp: smtpOut(row),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** GET /correspondence/letter-settings. */
export async function getLetterSettings(ctx: ServerContext): Promise<LetterSettings> {
  return settingsOut(await readSettings(ctx.db));
}

const audit = (
  tx: Tx,
  caller: AuthContext,
  action:
    | 'letterSettings.updated'
    | 'letterSettings.certificateSet'
    | 'letterSettings.certificateRemoved'
    | 'letterSettings.smtpUpdated'
    | 'letterSettings.smtpRemoved',
  details: Record<string, unknown>,
  ip: string | null,
) =>
  recordAudit(tx, {
    action,
    actorId: caller.userId,
    actorUsername: caller.username,
    targetType: 'letterSettings',
    targetId: 1,
    details,
    ip,
  });

/** PUT /correspondence/letter-settings. */
export async function saveLetterSettings(
  ctx: ServerContext,
  caller: AuthContext,
  input: LetterSettingsRequest,
  ip: string | null,
): Promise<LetterSettings> {
  const blank = (v: string | null) => (v && v.trim() ? v.trim() : null);
  await ctx.db.transaction(async (tx) => {
    await readSettings(tx);
    await tx.execute(sql`update organisation_settings set
        stamp_corner = ${input.stampCorner}, stamp_digits = ${input.stampDigits},
        stamp_heading_ar = ${blank(input.stampHeadingAr)}, stamp_heading_en = ${blank(input.stampHeadingEn)},
        verify_base_url = ${blank(input.verifyBaseUrl)?.replace(/\/+$/, '') ?? null},
        updated_at = now(), updated_by = ${caller.userId}
      where id = 1`);
    await audit(tx, caller, 'letterSettings.updated', { ...input }, ip);
  });
  return getLetterSettings(ctx);
}

/** PUT /correspondence/letter-settings/certificate: checked, then sealed. */
export async function setCertificate(
  ctx: ServerContext,
  caller: AuthContext,
  input: CertificateRequest,
  ip: string | null,
): Promise<LetterSettings> {
  const p12 = Buffer.from(input.pkcs12, 'base64');
  let summary: CertificateSummary;
  try {
    summary = readPkcs12(p12, input.password);
  } catch (error) {
    if (error instanceof CertificateProblem)
      throw new HttpProblem('unprocessable', {
        code: `final.certificate.${error.code}`,
        detailKey: `final.certificate.${error.code}`,
      });
    throw error;
  }
  const key = await secretsKey(ctx);
  const sealed = Buffer.from(sealSecret(key, p12)).toString('base64');
  const sealedPassword = Buffer.from(sealSecret(key, Buffer.from(input.password, 'utf8'))).toString('base64');
  await ctx.db.transaction(async (tx) => {
    await readSettings(tx);
    await tx.execute(sql`update organisation_settings set
        certificate_sealed = ${sealed}, certificate_password_sealed = ${sealedPassword},
        certificate = ${JSON.stringify(summary)}::jsonb, updated_at = now(), updated_by = ${caller.userId}
      where id = 1`);
    await audit(
      tx,
      caller,
      'letterSettings.certificateSet',
      { subject: summary.subject, fingerprint: summary.sha256Fingerprint, notAfter: summary.notAfter },
      ip,
    );
  });
  return getLetterSettings(ctx);
}

/** DELETE /correspondence/letter-settings/certificate. */
export async function removeCertificate(
  ctx: ServerContext,
  caller: AuthContext,
  ip: string | null,
): Promise<LetterSettings> {
  await ctx.db.transaction(async (tx) => {
    const before = await readSettings(tx);
    await tx.execute(sql`update organisation_settings set certificate_sealed = null,
        certificate_password_sealed = null, certificate = null, updated_at = now(), updated_by = ${caller.userId}
      where id = 1`);
    await audit(
      tx,
      caller,
      'letterSettings.certificateRemoved',
      { fingerprint: before.certificate?.sha256Fingerprint ?? null },
      ip,
    );
  });
  return getLetterSettings(ctx);
}

/** PUT /correspondence/letter-settings/smtp: the password omitted keeps the stored one, null or empty clears it. */
export async function saveSmtp(
  ctx: ServerContext,
  caller: AuthContext,
  input: SmtpRequestParsed,
  ip: string | null,
): Promise<LetterSettings> {
  const stored: StoredSmtp = {
    host: input.host,
    port: input.port,
    security: input.security,
    username: input.username,
    fromAddress: input.fromAddress,
    fromName: input.fromName,
    allowSelfSigned: input.allowSelfSigned,
  };
  const sealed =
    input.password === undefined
      ? undefined
      : input.password === null || input.password === ''
        ? null
        : Buffer.from(sealSecret(await secretsKey(ctx), Buffer.from(input.password, 'utf8'))).toString(
            'base64',
          );
  await ctx.db.transaction(async (tx) => {
    await readSettings(tx);
    await tx.execute(sql`update organisation_settings set smtp = ${JSON.stringify(stored)}::jsonb,
        ${sealed === undefined ? sql`` : sql`smtp_password_sealed = ${sealed},`}
        updated_at = now(), updated_by = ${caller.userId}
      where id = 1`);
    const { fromName: _name, ...details } = stored;
    await audit(
      tx,
      caller,
      'letterSettings.smtpUpdated',
      { ...details, password: sealed === undefined ? 'kept' : sealed === null ? 'cleared' : 'changed' },
      ip,
    );
  });
  return getLetterSettings(ctx);
}

/** DELETE /correspondence/letter-settings/smtp. */
export async function removeSmtp(
  ctx: ServerContext,
  caller: AuthContext,
  ip: string | null,
): Promise<LetterSettings> {
  await ctx.db.transaction(async (tx) => {
    const before = await readSettings(tx);
    await tx.execute(sql`update organisation_settings set smtp = null, smtp_password_sealed = null,
        updated_at = now(), updated_by = ${caller.userId}
      where id = 1`);
    await audit(tx, caller, 'letterSettings.smtpRemoved', { host: before.smtp?.host ?? null }, ip);
  });
  return getLetterSettings(ctx);
}

/** How long a silent SMTP server is waited for (connection, greeting, each answer). */
export const SMTP_TIMEOUT_MS = 20_000;

/** The problem of a dispatch or check without SMTP settings. */
export const noSmtp = () =>
  new HttpProblem('conflict', { code: 'final.email.noSmtp', detailKey: 'final.email.noSmtp' });

/** POST /correspondence/letter-settings/smtp/check: connects, secures and signs in with the stored settings. */
export async function checkStoredSmtp(ctx: ServerContext): Promise<SmtpCheck> {
  const smtp = await smtpOf(ctx, await readSettings(ctx.db));
  if (!smtp) throw noSmtp();
  const outcome = await checkSmtp(smtp, { timeoutMs: SMTP_TIMEOUT_MS });
  return outcome.ok
    ? { ok: true, error: null, code: null }
    : { ok: false, error: outcome.error, code: outcome.code };
}
