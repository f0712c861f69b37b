/**
 * PostgreSQL's own client programs (pg_dump, pg_restore) for backups of a PostgreSQL installation: found
 * in PG_BIN when set, else in the newest /usr/lib/postgresql/<major>/bin, else on PATH; run with the
 * connection string in the environment (never on the command line, where `ps` would show the password).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The path of a PostgreSQL client program, or an Error saying how to get one. */
export function findPgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  const dirs: string[] = [];
  if (env.PG_BIN) dirs.push(env.PG_BIN);
  try {
    const majors = readdirSync('/usr/lib/postgresql')
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) dirs.push(join('/usr/lib/postgresql', major, 'bin'));
  } catch {
    // No Debian layout here.
  }
  dirs.push(...(env.PATH ?? '').split(delimiter).filter(Boolean));
  for (const dir of dirs) {
    const path = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not here.
    }
  }
  throw new Error(
    `${name} was not found (PG_BIN, /usr/lib/postgresql/*/bin, PATH): install PostgreSQL's client programs ` +
      `of the server's major version or later (Debian: postgresql-client-15), or set PG_BIN to their folder.`,
  );
}

/** The connection string without its password (for the command line), and the password in PGPASSWORD. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/**
 * `pg_dump --format=custom` of the database at `url` into `file`; `snapshot`: an exported snapshot
 * (pg_export_snapshot) the dump reads, so it sees exactly what the exporting transaction sees.
 */
export async function pgDump(url: string, file: string, snapshot?: string): Promise<void> {
  const { dbname, env } = connection(url);
  const args = ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${dbname}`];
  if (snapshot) args.push(`--snapshot=${snapshot}`);
  await run(findPgTool('pg_dump'), args, { env, maxBuffer: 16 * 1024 * 1024 });
}

/** `pg_restore` of a custom-format dump into the (emptied) database at `url`, in one transaction. */
export async function pgRestore(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run(
    findPgTool('pg_restore'),
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
    { env, maxBuffer: 16 * 1024 * 1024 },
  );
}
