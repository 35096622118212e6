/** hash: HMAC-SHA256 under a per-project secret, so equal values stay joinable but cannot be looked up in a rainbow table. */
import { createHmac } from 'node:crypto';

export interface HashConfig {
  /** Hex characters kept (default 64, the whole digest). */
  length?: number;
  /** Prepended to the digest, e.g. `h:` (default none). */
  prefix?: string;
}

/** Hex HMAC-SHA256 of the value. */
export function hashValue(value: string, secret: string | Buffer, config: HashConfig = {}): string {
  if (!secret || secret.length === 0) throw new RangeError('hash needs the project secret');
  const digest = createHmac('sha256', secret).update(value, 'utf8').digest('hex');
  return (config.prefix ?? '') + digest.slice(0, Math.min(64, Math.max(8, config.length ?? 64)));
}
