import type { DataSource } from 'typeorm';
import { ApiKey, AuthSession, Project, ProjectMember, User } from '../../entities';
import { deleteProjectsData } from './projects';
import type { ArtifactStore } from '../../platform/artifact-store';
import { presentUser } from '../presenters/user';

/** The caller's own data: account, memberships, sessions and keys (never secrets). */
export async function exportMyData(ds: DataSource, userId: string) {
  const user = await ds.getRepository(User).findOneByOrFail({ id: userId });
  const memberships = await ds
    .getRepository(ProjectMember)
    .createQueryBuilder('m')
    .innerJoin(Project, 'p', 'p.id = m.project_id')
    .select(['p.id AS project_id', 'p.name AS project_name', 'p.description AS description', 'm.role AS role', 'm.created_at AS joined_at'])
    .where('m.user_id = :userId', { userId })
    .getRawMany();
  const sessions = await ds.getRepository(AuthSession).find({ where: { userId }, order: { createdAt: 'DESC' } });
  const keys = await ds.getRepository(ApiKey).find({ where: { userId }, order: { createdAt: 'DESC' } });
  return {
    exported_at: new Date().toISOString(),
    user: { ...presentUser(user, true), created_at: user.createdAt },
    memberships,
    sessions: sessions.map((s) => ({ id: s.id, created_at: s.createdAt, expires_at: s.expiresAt, revoked_at: s.revokedAt, user_agent: s.userAgent, ip: s.ip })),
    api_keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt })),
  };
}

/**
 * Deletes the user. Projects where the user is the only owner go with the account (their
 * artifact files too); in shared projects only the membership goes.
 */
export async function deleteAccount(ds: DataSource, store: ArtifactStore, userId: string): Promise<void> {
  const doomed: { id: string }[] = await ds.query(
    `SELECT p.id FROM projects p
      JOIN project_members m ON m.project_id = p.id AND m.user_id = $1 AND m.role = 'owner'
     WHERE NOT EXISTS (SELECT 1 FROM project_members o WHERE o.project_id = p.id AND o.role = 'owner' AND o.user_id <> $1)`,
    [userId],
  );
  const ids = doomed.map((d) => d.id);
  const files = await ds.transaction(async (em) => {
    const keys = await deleteProjectsData(em, ids);
    // Shared projects the user created stay; ownership passes to the remaining owners.
    await em.query(
      `UPDATE projects p SET owner_id = (SELECT o.user_id FROM project_members o WHERE o.project_id = p.id AND o.role = 'owner' AND o.user_id <> $1 ORDER BY o.created_at LIMIT 1)
        WHERE p.owner_id = $1`,
      [userId],
    );
    await em.getRepository(User).delete({ id: userId });
    return keys;
  });
  for (const key of files) store.remove(key);
}
