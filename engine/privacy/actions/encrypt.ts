/**
 * encrypt: AES-256-GCM under a key the caller manages, reversible by those allowed to hold the key.
 *
 * Token format (ASCII, one field per colon): `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>` where iv (12 random bytes),
 * tag (16 bytes) and ciphertext are base64url without padding, and the authenticated data is `enc:v1:<keyId>`, so a
 * token moved to another key id or version fails to decrypt. keyId names the key in the caller's key ring (rotation).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'enc:v1:';

export interface EncryptionKey {
  /** 32 bytes. */
  key: Buffer;
  /** Letters, digits, `-` and `_` (default `k1`). */
  keyId?: string;
}

function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new RangeError('AES-256-GCM needs a 32-byte key');
}

/** A token holding the value, encrypted and authenticated. */
export function encryptValue(value: string, k: EncryptionKey): string {
  checkKey(k.key);
  const keyId = k.keyId ?? 'k1';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(keyId)) throw new RangeError('keyId must be 1-64 letters, digits, - or _');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k.key, iv);
  cipher.setAAD(Buffer.from(TOKEN_PREFIX + keyId));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${TOKEN_PREFIX}${keyId}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
}

/** Whether a string is an encryption token of this format. */
export function isEncryptedToken(s: string): boolean {
  return s.startsWith(TOKEN_PREFIX) && s.split(':').length === 6;
}

/** The value a token holds; throws when the key is unknown or the token was altered. */
export function decryptValue(token: string, keys: Record<string, Buffer> | Buffer): string {
  const parts = token.split(':');
  if (parts.length !== 6 || `${parts[0]}:${parts[1]}:` !== TOKEN_PREFIX) throw new RangeError('Not an encryption token');
  const [, , keyId, iv, tag, ct] = parts;
  const key = Buffer.isBuffer(keys) ? keys : keys[keyId];
  if (!key) throw new RangeError(`Unknown encryption key id: ${keyId}`);
  checkKey(key);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(TOKEN_PREFIX + keyId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
