/**
 * The organisation's settings for the letters it sends (issue 27): the stamp's corner, digits and
 * heading, the public verification address, and the signing certificate. The certificate (PKCS#12) and
 * its password are checked when uploaded (signature.ts readPkcs12), then sealed with the server's secrets
 * key; only the certificate's summary ever leaves the server.
 */
import { sql } from 'drizzle-orm';
import type {
  CertificateRequest,
  CertificateSummary,
  LetterSettings,
  LetterSettingsRequest,
} from '../../../src-shared/api/final';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
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
  updated_at: Date | string;
}

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

const keys = new WeakMap<ServerContext, Promise<Uint8Array>>();
/** The server's secrets key (SIJILL_SECRETS_KEY, or a key file in the data directory), read once. */
function secretsKey(ctx: ServerContext): Promise<Uint8Array> {
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

function settingsOut(row: SettingsRow): LetterSettings {
  return {
    stampCorner: row.stamp_corner,
    stampDigits: row.stamp_digits,
    stampHeadingAr: row.stamp_heading_ar,
    stampHeadingEn: row.stamp_heading_en,
    verifyBaseUrl: row.verify_base_url,
    certificate: row.certificate,
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
  action: 'letterSettings.updated' | 'letterSettings.certificateSet' | 'letterSettings.certificateRemoved',
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
