import type { DataSource } from 'typeorm';
import { ApiKey } from '../entities';
import { randomToken, sha256 } from '../platform/secrets';
import type { AccountActivity, RequestMeta } from './account-activity';
import { isKnownScope } from './scopes';
import { NotFoundError, ValidationError } from './errors';

/** API keys: `<prefix>.<secret>`, the secret shown once and stored as its SHA-256. */
export class ApiKeyService {
  constructor(
    private readonly ds: DataSource,
    private readonly activity: AccountActivity,
  ) {}

  /** A new key; the `api_key_created` event is written with it. */
  async create(userId: string, name: string, scopes: string[], meta: RequestMeta = {}): Promise<{ key: ApiKey; token: string }> {
    if (scopes.length === 0) throw ValidationError.field(['body', 'scopes'], 'At least one scope is required');
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (unknown.length) throw ValidationError.field(['body', 'scopes'], `Unknown scope(s): ${unknown.join(', ')}`);
    const prefix = `mlk_${randomToken(6)}`;
    const secret = randomToken(32);
    const key = this.ds.getRepository(ApiKey).create({ userId, name, prefix, secretHash: sha256(secret), scopes: [...new Set(scopes)], lastUsedAt: null, revokedAt: null });
    await this.ds.transaction(async (em) => {
      await em.getRepository(ApiKey).insert(key);
      await this.activity.record(em, userId, 'api_key_created', meta, { key_id: key.id, name, prefix, scopes: key.scopes });
    });
    return { key, token: `${prefix}.${secret}` };
  }

  /** The user's live keys, newest first. */
  live(userId: string): Promise<ApiKey[]> {
    return this.ds.getRepository(ApiKey).createQueryBuilder('k').where('k.user_id = :u AND k.revoked_at IS NULL', { u: userId }).orderBy('k.created_at', 'DESC').getMany();
  }

  /** Revokes one of the user's live keys and returns it (its prefix, for caches to forget); the `api_key_revoked` event is written with it. */
  async revoke(userId: string, keyId: string, meta: RequestMeta = {}): Promise<ApiKey> {
    return this.ds.transaction(async (em) => {
      const r = await em
        .getRepository(ApiKey)
        .createQueryBuilder()
        .update()
        .set({ revokedAt: () => 'now()' })
        .where('id = :id AND user_id = :u AND revoked_at IS NULL', { id: keyId, u: userId })
        .execute();
      if (!r.affected) throw new NotFoundError('API key not found');
      const key = await em.getRepository(ApiKey).findOneByOrFail({ id: keyId });
      await this.activity.record(em, userId, 'api_key_revoked', meta, { key_id: key.id, name: key.name, prefix: key.prefix });
      return key;
    });
  }
}
