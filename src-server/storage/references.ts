/**
 * Which stored contents no row names any more. The file store keeps one copy per SHA-256, so bytes may go
 * from it only when nothing names them: a correspondence attachment, an employee's file or photo, an intake
 * receipt, a final letter, a disposition's certificate or package, a report export still kept. Every
 * remover asks here (a destruction, an export's expiry, the daily sweep: storage/sweep.ts), so a new kind
 * of stored file is named once (tests/api/file-sweep.test.ts fails on a new hash column until it is).
 */
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows';
import type { Tx } from '../modules/auth/queries';

/** The job kind of a report export: its progress names its file (`sha256`) until `expiresAt`. */
export const REPORT_EXPORT_JOB = 'reports.export';

/** The hashes among `hashes` that no row names; `exceptExport`: an export whose own file this is. */
export async function unreferenced(
  db: Tx,
  hashes: readonly string[],
  options: { exceptExport?: number } = {},
): Promise<string[]> {
  if (!hashes.length) return [];
  // Hex only: the hashes are written into the array literal.
  const list = hashes.map((h) => `'${h.replace(/[^0-9a-f]/g, '')}'`).join(',');
  const rows = await rowsOf<{ sha256: string }>(
    db,
    sql`select h as sha256 from unnest(${sql.raw(`array[${list}]::text[]`)}) as h
        where not exists (select 1 from document_attachments a where a.sha256 = h)
          and not exists (select 1 from employee_attachments e where e.sha256 = h)
          and not exists (select 1 from employees e where e.photo_sha256 = h)
          and not exists (select 1 from intake_receipts r where r.sha256 = h)
          and not exists (select 1 from final_letters fl where fl.sha256 = h)
          and not exists (select 1 from dispositions w where w.output_sha256 = h)
          and not exists (select 1 from background_jobs j where j.kind = ${REPORT_EXPORT_JOB}
                            and j.id <> ${options.exceptExport ?? 0} and j.progress->>'sha256' = h
                            and (j.progress->>'expiresAt')::timestamptz > now())`,
  );
  return rows.map((r) => r.sha256);
}
