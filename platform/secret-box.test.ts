import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { keyId, loadSecretBox, SecretBox, SecretKeyError } from './secret-box';

const CONTEXT = 'sso_providers.client_secret';

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('seals with a fresh IV each time, carries the version and key id, and opens what it sealed', () => {
    const a = box.seal('s3cret-value', CONTEXT);
    const b = box.seal('s3cret-value', CONTEXT);
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^enc:v1:${keyId(key)}:[\\w-]+:[\\w-]+:[\\w-]+$`));
    expect(a).not.toContain('s3cret');
    expect(box.open(a, CONTEXT)).toBe('s3cret-value');
    expect(box.open(box.seal('', CONTEXT), CONTEXT)).toBe('');
    expect(box.open(box.seal('ünïcødé ✓', CONTEXT), CONTEXT)).toBe('ünïcødé ✓');
  });

  it('refuses another key, another context and an altered value with a SecretKeyError that names no key', () => {
    const sealed = box.seal('value', CONTEXT);
    const other = randomBytes(32);
    const wrong = new SecretBox(other);
    expect(() => wrong.open(sealed, CONTEXT)).toThrow(SecretKeyError);
    expect(() => wrong.open(sealed, CONTEXT)).toThrow(`encrypted with key ${keyId(key)}, which this server does not have (its SECRETS_KEY is key ${keyId(other)})`);
    try {
      wrong.open(sealed, CONTEXT);
    } catch (err) {
      for (const k of [key, other]) for (const enc of ['base64', 'hex', 'base64url'] as const) expect((err as Error).message).not.toContain(k.toString(enc));
    }
    expect(() => box.open(sealed, 'another.column')).toThrow('altered');
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join(':'), CONTEXT)).toThrow(SecretKeyError);
    expect(() => box.open('plaintext', CONTEXT)).toThrow(SecretKeyError);
    expect(() => box.open('enc:v1:abc', CONTEXT)).toThrow('not in the encrypted format');
  });

  it('reads values of an earlier key after a rotation and says which need sealing again', () => {
    const next = new SecretBox(randomBytes(32), [key]);
    const old = box.seal('kept', CONTEXT);
    expect(next.open(old, CONTEXT)).toBe('kept');
    expect(next.needsSealing(old)).toBe(true);
    expect(next.needsSealing('plaintext')).toBe(true);
    expect(next.needsSealing(next.seal('kept', CONTEXT))).toBe(false);
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
  });
});

describe('loadSecretBox', () => {
  const log = createLogger('silent', 'test');
  const dirs: string[] = [];
  const dataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('without SECRETS_KEY makes a key file in DATA_DIR once (mode 0600) and reads it back', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.secrets.key).toBeNull();
    expect(config.secrets.keyFile).toBe(path.join(config.dataDir, 'secrets.key'));
    const first = loadSecretBox(config.secrets, log);
    expect(fs.statSync(config.secrets.keyFile).mode & 0o777).toBe(0o600);
    const second = loadSecretBox(config.secrets, log);
    expect(second.keyId).toBe(first.keyId);
    expect(second.open(first.seal('x', CONTEXT), CONTEXT)).toBe('x');
    expect(fs.readdirSync(config.dataDir)).toEqual(['secrets.key']);
  });

  it('tightens a key file other users could read, and refuses one that holds no key', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    loadSecretBox(config.secrets, log);
    fs.chmodSync(config.secrets.keyFile, 0o644);
    loadSecretBox(config.secrets, log);
    expect(fs.statSync(config.secrets.keyFile).mode & 0o777).toBe(0o600);
    fs.writeFileSync(config.secrets.keyFile, 'short\n');
    expect(() => loadSecretBox(config.secrets, log)).toThrow(SecretKeyError);
  });

  it('uses SECRETS_KEY and SECRETS_KEY_PREVIOUS when set, and refuses malformed ones without repeating them', () => {
    const current = randomBytes(32).toString('base64');
    const previous = randomBytes(32).toString('base64');
    const config = loadConfig({ DATA_DIR: dataDir(), SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: ` ${previous} ` });
    const box = loadSecretBox(config.secrets, log);
    expect(box.keyId).toBe(keyId(Buffer.from(current, 'base64')));
    expect(box.open(new SecretBox(Buffer.from(previous, 'base64')).seal('old', CONTEXT), CONTEXT)).toBe('old');
    expect(fs.existsSync(config.secrets.keyFile)).toBe(false);
    for (const env of [{ SECRETS_KEY: 'short-key-value' }, { SECRETS_KEY: randomBytes(24).toString('base64') }, { SECRETS_KEY_PREVIOUS: `${previous},bogus-previous-key` }]) {
      let message = '';
      try {
        loadConfig(env);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/SECRETS_KEY(_PREVIOUS)?: .*base64/);
      for (const v of Object.values(env)) expect(message).not.toContain(v);
    }
  });
});
