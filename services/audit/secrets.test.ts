import { MASK, isSecretField, maskSecrets } from './secrets';

describe('audit secret masking', () => {
  it('masks listed and secret-looking names at any depth, and keeps the rest', () => {
    const value = { name: 'hook', config: { webhook_url: 'https://hooks.slack.test/T/B/x', channel: '#ops', nested: [{ client_secret: 's3' }] }, passwordHash: 'argon', prefix: 'abc' };
    expect(maskSecrets(value)).toEqual({ name: 'hook', config: { webhook_url: MASK, channel: '#ops', nested: [{ client_secret: MASK }] }, passwordHash: MASK, prefix: 'abc' });
    for (const n of ['secret_hash', 'token', 'csrf_token', 'hmac_secret', 'smtpPassword', 'refresh_token', 'private_key']) expect([n, isSecretField(n)]).toEqual([n, true]);
    for (const n of ['name', 'prefix', 'scopes', 'project_id']) expect([n, isSecretField(n)]).toEqual([n, false]);
  });

  it('writes dates as ISO text, binary data as its length, and null secrets as null', () => {
    expect(maskSecrets({ at: new Date('2026-01-02T03:04:05Z'), blob: Buffer.from('abcd'), secret: null })).toEqual({ at: '2026-01-02T03:04:05.000Z', blob: '<4 bytes>', secret: null });
  });
});
