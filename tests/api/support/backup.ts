/**
 * What the backup tests share: a whole database read out to compare two installations (every row of every
 * table, every sequence's position), and a registered letter with a PDF of its own to back up.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { tablesInDependencyOrder } from '../../../src-server/backup/copy';
import type { Sql } from '../../../src-server/backup/database';
import { minimalPdf, multipart } from './files';
import { call, type Harness } from './harness';
import { letter, type Org } from './correspondence';

/** Every row of every table (as JSON text, sorted) and every sequence's position. */
export async function everything(sql: Sql): Promise<Record<string, string[]>> {
  await sql.query(`set timezone = 'UTC'`);
  const out: Record<string, string[]> = {};
  for (const table of await tablesInDependencyOrder(sql)) {
    const { rows } = await sql.query<{ r: string }>(
      `select to_json(t)::text as r from public.${pg.escapeIdentifier(table)} t`,
    );
    out[table] = rows.map((x) => x.r).sort();
  }
  const { rows: seqs } = await sql.query<{ name: string }>(
    `select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and relkind = 'S'`,
  );
  for (const { name } of seqs) {
    const { rows } = await sql.query<{ v: string }>(
      `select last_value::text || '/' || is_called::text as v from public.${pg.escapeIdentifier(name)}`,
    );
    out[`sequence ${name}`] = [rows[0]!.v];
  }
  return out;
}

/** Registers an incoming letter with a PDF attachment of its own; answers its id. */
export async function letterWithAttachment(h: Harness, org: Org, note: string): Promise<number> {
  const doc = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: { ...letter(org), register: true },
  });
  if (doc.status !== 201) throw new Error(`register: ${doc.status} ${JSON.stringify(doc.json)}`);
  const body = multipart(
    minimalPdf(`${note} ${randomBytes(6).toString('hex')}`),
    'letter.pdf',
    'application/pdf',
  );
  const up = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${doc.json.data.id}/attachments`,
    headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
    payload: body.payload,
  });
  if (up.statusCode !== 201) throw new Error(`attach: ${up.statusCode} ${up.body}`);
  return doc.json.data.id as number;
}

/**
 * The source as its backup saw it: the audit row that records the backup (`backups.made`, written once the
 * backup is complete, so after its snapshot) taken out, and the audit sequence put back to before it. Throws
 * unless there is exactly one such row and it is the newest, so a backup that forgot its record still fails.
 */
export function asItsBackupSaw(all: Record<string, string[]>, name: string): Record<string, string[]> {
  const audit = all.audit_log ?? [];
  const own = audit.filter((r) => {
    const row = JSON.parse(r) as { action: string; target_id: string | null };
    return row.action === 'backups.made' && row.target_id === name;
  });
  if (own.length !== 1) throw new Error(`expected one backups.made row for ${name}, found ${own.length}`);
  const ownId = (JSON.parse(own[0]!) as { id: number }).id;
  const seq = 'sequence audit_log_id_seq';
  if (all[seq]?.[0] !== `${ownId}/true`)
    throw new Error(`the backup's record is not the newest: ${all[seq]?.[0]}`);
  return {
    ...all,
    audit_log: audit.filter((r) => r !== own[0]),
    [seq]: [ownId > 1 ? `${ownId - 1}/true` : '1/false'],
  };
}
