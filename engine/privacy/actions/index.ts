/**
 * The seven transformation actions as pure functions of a value, its PII type, the rule's config and the project's
 * secrets. Nothing here stores anything: secrets and keys come from the caller (per project).
 */
import { decryptValue, encryptValue } from './encrypt';
import { generalizeValue, type GeneralizeConfig } from './generalize';
import { hashValue, type HashConfig } from './hash';
import { maskValue, type MaskConfig } from './mask';
import { pseudonymizeValue } from './pseudonymize';

export { decryptValue, encryptValue, isEncryptedToken, TOKEN_PREFIX } from './encrypt';
export { generalizeValue, type GeneralizeConfig } from './generalize';
export { hashValue, type HashConfig } from './hash';
export { maskValue, type MaskConfig } from './mask';
export { pseudonymizeValue, pseudonymKey } from './pseudonymize';

export type ActionId = 'mask' | 'hash' | 'redact' | 'encrypt' | 'generalize' | 'suppress' | 'pseudonymize';

export const ACTIONS: readonly { id: ActionId; name: string; description: string }[] = [
  { id: 'mask', name: 'Mask', description: 'Replace characters with a mask character, keeping a few visible (config: char, visible, from, keepSeparators).' },
  { id: 'hash', name: 'Hash', description: 'HMAC-SHA256 under the project secret: equal values stay equal, nothing can be read back (config: length, prefix).' },
  { id: 'redact', name: 'Redact', description: 'Replace the value with a fixed text (config: replacement, where {type} names the PII type; default [REDACTED]).' },
  { id: 'encrypt', name: 'Encrypt', description: 'AES-256-GCM under the project key; reversible by holders of the key (token enc:v1:keyId:iv:tag:ciphertext).' },
  { id: 'generalize', name: 'Generalize', description: 'Dates to month or year, ages to bands, postal codes to prefixes, coordinates to a grid, IPv4 to its network.' },
  { id: 'suppress', name: 'Suppress', description: 'Remove the value (cell becomes null); config scope "column" asks the caller to drop the whole column.' },
  { id: 'pseudonymize', name: 'Pseudonymize', description: 'A realistic fake of the same type, the same for the same input within a project (valid check digits kept).' },
];

const IDS = new Set<string>(ACTIONS.map((a) => a.id));

/** Whether a string names one of the seven actions. */
export function isAction(id: string): id is ActionId {
  return IDS.has(id);
}

/** A rule's action-specific settings; each action reads its own fields. */
export interface ActionConfig extends MaskConfig, HashConfig, GeneralizeConfig {
  replacement?: string;
  scope?: 'cell' | 'column';
}

/** What a project lends the actions: the HMAC secret (hash, pseudonymize) and the encryption key (encrypt). */
export interface ProjectSecrets {
  hmacSecret?: string | Buffer;
  encryptionKey?: Buffer;
  keyId?: string;
}

export interface ActionResult {
  /** The new value; null when suppressed. */
  value: string | null;
  /** suppress with scope `column`: the caller drops the whole column. */
  dropColumn?: boolean;
}

function secret(secrets: ProjectSecrets, action: string): string | Buffer {
  if (!secrets.hmacSecret || secrets.hmacSecret.length === 0) throw new RangeError(`${action} needs the project's HMAC secret`);
  return secrets.hmacSecret;
}

/** Apply one action to one value of a PII type. */
export function applyAction(action: ActionId, value: string, piiType: string, config: ActionConfig = {}, secrets: ProjectSecrets = {}): ActionResult {
  switch (action) {
    case 'mask':
      return { value: maskValue(value, config) };
    case 'hash':
      return { value: hashValue(value, secret(secrets, action), config) };
    case 'redact':
      return { value: (config.replacement ?? '[REDACTED]').replace('{type}', piiType.toUpperCase()) };
    case 'encrypt':
      if (!secrets.encryptionKey) throw new RangeError("encrypt needs the project's encryption key");
      return { value: encryptValue(value, { key: secrets.encryptionKey, keyId: secrets.keyId }) };
    case 'generalize':
      return { value: generalizeValue(value, piiType, config) };
    case 'suppress':
      return config.scope === 'column' ? { value: null, dropColumn: true } : { value: null };
    case 'pseudonymize':
      return { value: pseudonymizeValue(value, piiType, secret(secrets, action)) };
  }
}

/** Read an encrypted value back (for those the caller allows). */
export function decrypt(token: string, secrets: ProjectSecrets | Record<string, Buffer>): string {
  const keys = 'encryptionKey' in secrets && Buffer.isBuffer(secrets.encryptionKey) ? { [(secrets as ProjectSecrets).keyId ?? 'k1']: secrets.encryptionKey } : (secrets as Record<string, Buffer>);
  return decryptValue(token, keys);
}
