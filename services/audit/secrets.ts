/**
 * What the audit log never stores. A field whose name is in `SECRET_FIELDS` (entity property or column name, or a key
 * anywhere inside a JSON value) or matches `SECRET_PATTERN` is written as `MASK`. Other parts add their fields here,
 * one line each, in both spellings where they differ.
 */
export const MASK = '***';

export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  // Accounts: users, sessions, API keys, mailed tokens, invitations.
  'passwordHash',
  'password_hash',
  'password',
  'currentPassword',
  'current_password',
  'newPassword',
  'new_password',
  'tokenHash',
  'token_hash',
  'csrfToken',
  'csrf_token',
  'secretHash',
  'secret_hash',
  'token',
  // Alert channels: a webhook's signing secret, a Slack incoming-webhook URL (its path is the credential).
  'secret',
  'webhook_url',
  'webhookUrl',
  // The privacy suite's per-project HMAC key.
  'hmacSecret',
  'hmac_secret',
  // SSO providers and billing (parts sso and billing).
  'clientSecret',
  'client_secret',
  // A sign-in in flight (part sso): its PKCE verifier and nonce.
  'codeVerifier',
  'code_verifier',
  'nonce',
  'webhookSecret',
  'webhook_secret',
  'apiKey',
  'api_key',
  // Billing: the provider's customer id (its user sees it masked only).
  'customerId',
  'customer_id',
]);

/** Names that look secret whatever they are called exactly. */
export const SECRET_PATTERN = /secret|password|token|hash|credential|private_?key/i;

/** Whether a field of this name is masked. */
export function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name) || SECRET_PATTERN.test(name);
}

/** Deepest JSON level masked and kept; deeper values are summarised (the audit log is not a copy of documents). */
const MAX_DEPTH = 6;

/**
 * A copy of `value` fit for the audit log: secret keys masked at any depth, Dates as ISO strings, binary data as its
 * length, deep values summarised.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function') return '<expression>';
  if (typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '<nested>';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = isSecretField(k) && v !== null && v !== undefined ? MASK : maskSecrets(v, depth + 1);
  return out;
}
