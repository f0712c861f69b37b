/**
 * How the embedded PGlite is started, wherever it is opened (its worker thread, the server's thread with
 * PGLITE_IN_THREAD, a backup or a restore): PGlite's own start parameters plus the memory settings of a
 * desk. PostgreSQL's defaults are a server's: 128 MB of shared buffers, which PGlite's WebAssembly memory
 * holds from the start and never gives back, and 64 MB for each index build or vacuum. A desk keeps its
 * tables in the operating system's file cache instead (outside the process), so its database costs
 * ~30 MB rather than ~150 MB of the process's memory (docs/decisions.md, "The embedded server's memory").
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteParsers } from './int8';

/** PGlite's shared buffers on a desk, in MB, unless PGLITE_SHARED_BUFFERS_MB says otherwise. */
export const PGLITE_SHARED_BUFFERS_MB = 16;
/** Memory for one index build or vacuum (PostgreSQL's default is 64 MB). */
const MAINTENANCE_WORK_MEM_MB = 16;

/** The settings PGlite starts with, given the shared buffers in MB. */
export function pgliteStartParams(sharedBuffersMb = PGLITE_SHARED_BUFFERS_MB): string[] {
  return [
    ...PGlite.defaultStartParams,
    '-c',
    `shared_buffers=${sharedBuffersMb}MB`,
    '-c',
    `maintenance_work_mem=${MAINTENANCE_WORK_MEM_MB}MB`,
  ];
}

/** PGlite's options: pg_trgm, our int8 parsers (unless `parsers: false`), the memory settings above. */
export function pgliteOptions(
  opts: { sharedBuffersMb?: number; parsers?: boolean } = {},
): PGliteOptions & { extensions: { pg_trgm: typeof pg_trgm } } {
  return {
    extensions: { pg_trgm },
    ...(opts.parsers === false ? {} : { parsers: pgliteParsers }),
    startParams: pgliteStartParams(opts.sharedBuffersMb),
  };
}
