/**
 * Server configuration from the environment, validated at start: a wrong value stops the server with a
 * message naming the variable, instead of failing later.
 */
import { z } from 'zod';

const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

export const configSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(8787, 0, 65535),
  /** Where PGlite data and attachment files live when no DATABASE_URL is set. */
  DATA_DIR: z.string().min(1).default('.data/server'),
  /** node-postgres connection string; when absent the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** Largest accepted upload, in bytes. */
  UPLOAD_MAX_BYTES: int(25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** A session ends after this many idle minutes… */
  SESSION_IDLE_MINUTES: int(60, 1, 60 * 24 * 30),
  /** …and in any case this many hours after sign-in… */
  SESSION_ABSOLUTE_HOURS: int(12, 1, 24 * 365),
  /** …or, with remember-me, this many days. */
  SESSION_REMEMBER_DAYS: int(30, 1, 365),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ServerConfig = z.infer<typeof configSchema>;

/** Parses the environment; throws an Error whose message lists every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const picked = Object.fromEntries(
    Object.keys(configSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid server configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
