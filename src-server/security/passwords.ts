/**
 * Password hashing with argon2id (@node-rs/argon2). The cost comes from the configuration; verifying
 * against a dummy hash when an account does not exist keeps the answer time alike for unknown logins.
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/** argon2id in @node-rs/argon2's (const) enum. */
const ARGON2ID = 2 as Algorithm;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
  /** Spends the time of one verification on nothing (unknown account). */
  verifyDummy(password: string): Promise<false>;
}

/** A hasher with the given argon2id cost (memory in KiB, passes). */
export function createPasswordHasher(cost: { memoryKib: number; timeCost: number }): PasswordHasher {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: cost.memoryKib,
    timeCost: cost.timeCost,
    parallelism: 1,
  };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    verify: async (hashed, password) => {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= hash(randomBytes(16).toString('hex'), options);
      await verify(await dummy, password).catch(() => false);
      return false;
    },
  };
}

/** A readable random password (temporary passwords of a reset): 16 characters, no look-alikes. */
export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
