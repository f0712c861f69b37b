/**
 * The SHA-256 of a chosen file, as the server names stored content (lower-case hex), read a chunk at a
 * time from the file's stream (@noble/hashes, incremental): a 200 MB scan is never whole in memory,
 * which `crypto.subtle.digest` would need.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export async function contentHash(file: Blob): Promise<string> {
  const hash = sha256.create();
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return bytesToHex(hash.digest());
}
