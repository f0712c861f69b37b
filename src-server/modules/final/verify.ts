/**
 * What the public verification page says of a token (issue 27): the letter it was issued as — number,
 * date, entity, signatory, the final PDF's SHA-256 and page count, whether it is signed or cancelled —
 * and its subject only for a letter at the lowest security level. An unknown token, or a letter whose
 * final PDF is not made, says nothing more than "no letter matches".
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import { factsOf } from './letters';
import type { VerifyOutcome } from './verify-page';

/**
 * Whether a document's security rank is the lowest level (or below any level set): only then may its
 * subject be shown outside the organisation (the verification page, an e-mail's subject line).
 */
export const atLowestSecurity = (rank: SQL) =>
  sql`(${rank} <= coalesce((select min(s.level) from correspondence_settings s
                             where s.list = 'security-levels'), 0))`;

/** A token as openFinal makes them: 16 random bytes in base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

interface Row {
  document_id: number;
  sha256: string;
  pages: number;
  signed: boolean;
  cancelled_at: Date | string | null;
  subject: string | null;
  lowest: boolean;
}

export async function verifyOutcome(ctx: ServerContext, token: string): Promise<VerifyOutcome> {
  const [row] = await rowsOf<Row>(
    ctx.db,
    sql`select f.document_id, f.sha256, f.pages, f.signed, f.cancelled_at, d.subject,
               ${atLowestSecurity(sql`d.security_rank`)} as lowest
          from final_letters f join documents d on d.id = f.document_id
         where f.token = ${token} and f.state = 'done'`,
  );
  if (!row) return { kind: 'unknown' };
  const facts = await factsOf(ctx.db, row.document_id);
  return {
    kind: 'found',
    number: facts.number,
    approvedAt: facts.approvedAt,
    organisation: facts.organisation,
    signatory: facts.signatory,
    sha256: row.sha256,
    signed: row.signed,
    subject: row.lowest ? row.subject : null,
    cancelled: row.cancelled_at !== null,
    pages: row.pages,
  };
}
