import type { DataSource } from 'typeorm';
import { ApiKey } from '../entities';
import { randomToken, sha256 } from '../platform/secrets';
import { isKnownScope } from './scopes';
import { NotFoundError, ValidationError } from './errors';

/** API keys: `<prefix>.<secret>`, the secret shown once and stored as its SHA-256. */
export class ApiKeyService {
  constructor(private readonly ds: DataSource) {}

  async create(userId: string, name: string, scopes: string[]): Promise<{ key: ApiKey; token: string }> {
    if (scopes.length === 0) throw ValidationError.field(['body', 'scopes'], 'At least one scope is required');
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (unknown.length) throw ValidationError.field(['body', 'scopes'], `Unknown scope(s): ${unknown.join(', ')}`);
    const prefix = `mlk_${randomToken(6)}`;
    const secret = randomToken(32);
    const repo = this.ds.getRepository(ApiKey);
    const key = repo.create({ userId, name, prefix, secretHash: sha256(secret), scopes: [...new Set(scopes)], lastUsedAt: null, revokedAt: null });
    await repo.insert(key);
    return { key, token: `${prefix}.${secret}` };
  }

  /** The user's live keys, newest first. */
  live(userId: string): Promise<ApiKey[]> {
    return this.ds.getRepository(ApiKey).createQueryBuilder('k').where('k.user_id = :u AND k.revoked_at IS NULL', { u: userId }).orderBy('k.created_at', 'DESC').getMany();
  }

  /** Revokes one of the user's live keys and returns it (its prefix, for caches to forget). */
  async revoke(userId: string, keyId: string): Promise<ApiKey> {
    const r = await this.ds
      .getRepository(ApiKey)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND user_id = :u AND revoked_at IS NULL', { id: keyId, u: userId })
      .execute();
    if (!r.affected) throw new NotFoundError('API key not found');
    return this.ds.getRepository(ApiKey).findOneByOrFail({ id: keyId });
  }
}
