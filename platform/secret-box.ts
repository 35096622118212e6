import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import type { Logger } from './logger';

/**
 * Secrets the service must be able to read back (an SSO provider's client secret, which it sends to the provider) are
 * stored encrypted: AES-256-GCM under a key that is not in the database (SECRETS_KEY, or a key file in DATA_DIR), so a
 * copy of the database (a backup, a dump, a read-only replica) does not hold them in clear.
 *
 * A stored value reads `enc:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts): the version says how to read the
 * rest, the key id which key sealed it, so a new key can be introduced while values sealed with the earlier one are
 * still read (SECRETS_KEY_PREVIOUS) and re-sealed.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** A stored secret this server cannot read: sealed with a key it does not have, or altered. The message names no key. */
export class SecretKeyError extends Error {}

/** The public id of a key: 8 hex digits of a hash of it (says which key sealed a value, reveals nothing of it). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('mlsvc-secret-key-id:').update(key).digest('hex').slice(0, 8);
}

export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** The id of the key new values are sealed with. */
  readonly keyId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const k of [current, ...previous]) if (k.length !== KEY_BYTES) throw new Error(`A secrets key must be ${KEY_BYTES} bytes`);
    this.keyId = keyId(current);
    for (const k of [...previous].reverse()) this.keys.set(keyId(k), k);
    this.keys.set(this.keyId, current);
  }

  /** Whether a stored value is sealed at all (anything else is plaintext from before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /**
   * Seals `plain`; `context` names what the value is (`sso_providers.client_secret`) and is authenticated with it,
   * so a value copied into another kind of field does not open there.
   */
  seal(plain: string, context: string): string {
    const key = this.keys.get(this.keyId)!;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.keyId}:${[iv, ct, cipher.getAuthTag()].map((b) => b.toString('base64url')).join(':')}`;
  }

  /** The plaintext of a sealed value; throws {@link SecretKeyError} when it cannot be read. */
  open(stored: string, context: string): string {
    if (!SecretBox.isSealed(stored)) throw new SecretKeyError('The stored value is not encrypted');
    const [kid, iv, ct, tag, ...rest] = stored.slice(PREFIX.length).split(':');
    if (!kid || iv === undefined || ct === undefined || tag === undefined || rest.length) throw new SecretKeyError('The stored value is not in the encrypted format');
    const key = this.keys.get(kid);
    if (!key) {
      throw new SecretKeyError(
        `It was encrypted with key ${kid}, which this server does not have (its SECRETS_KEY is key ${this.keyId}${this.keys.size > 1 ? `; SECRETS_KEY_PREVIOUS adds ${[...this.keys.keys()].filter((k) => k !== this.keyId).join(', ')}` : ''})`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyError(`It does not decrypt with key ${kid}: the stored value was altered`);
    }
  }

  /** Whether a stored value should be sealed again: plaintext, or sealed with a key other than the current one. */
  needsSealing(stored: string): boolean {
    return !stored.startsWith(`${PREFIX}${this.keyId}:`);
  }
}

/**
 * The configured secrets key, or else the key file in DATA_DIR (beside the embedded database's folder, DATA_DIR/pg):
 * read when it exists, otherwise made once (mode 0600).
 */
export function loadSecretBox(secrets: Config['secrets'], log: Logger): SecretBox {
  return new SecretBox(secrets.key ?? keyFromFile(secrets.keyFile, log), secrets.previousKeys);
}

function keyFromFile(file: string, log: Logger): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written aside, then linked into place: a process starting at the same moment finds the whole key or none.
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(staging, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(staging, file);
    log.info(
      { file },
      'SECRETS_KEY is unset: generated the key that encrypts stored secrets (SSO client secrets) and kept it in this file (mode 0600). Back it up with the database; API processes on other machines need the same key (set SECRETS_KEY)',
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(staging, { force: true });
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new SecretKeyError(`${file} does not hold a ${KEY_BYTES}-byte base64 key: restore it from a backup, or set SECRETS_KEY`);
  if ((fs.statSync(file).mode & 0o077) !== 0) {
    fs.chmodSync(file, 0o600);
    log.warn({ file }, 'the secrets key file was readable by other users: its mode is now 0600');
  }
  return key;
}
