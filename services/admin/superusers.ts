import type { DataSource, EntityManager } from 'typeorm';
import { User } from '../../entities';
import type { AccountActivity, RequestMeta } from '../account-activity';
import { ConflictError, NotFoundError } from '../errors';

export const LAST_SUPERUSER = 'The last superuser cannot lose the flag: make another user a superuser first';

/** One lock key for every change of who is a superuser: the "never none" rule holds under concurrent requests. */
const SUPERUSER_LOCK = 0x5e_ad_01;

async function lockSuperusers(em: EntityManager): Promise<void> {
  await em.query('SELECT pg_advisory_xact_lock($1)', [SUPERUSER_LOCK]);
}

async function superuserCount(em: EntityManager): Promise<number> {
  return em.getRepository(User).countBy({ isSuperuser: true });
}

/**
 * Who administers the instance. `is_superuser` is granted only by another superuser (`PUT /api/admin/users/{id}`),
 * by the operator's CLI (`node dist/scripts/admin.js grant-superuser <email>`), or by the first-run bootstrap: while
 * no superuser exists, the account with `ADMIN_EMAIL` becomes one (when it registers, or when the API starts and it
 * exists). Each grant and revoke is a security event of the account (`superuser_granted`, `superuser_revoked`).
 */
export class Superusers {
  constructor(
    private readonly ds: DataSource,
    private readonly activity: AccountActivity,
    private readonly bootstrapEmail: string | null,
  ) {}

  /** A superuser's change of another user's flag (or their own, unless they are the last one). */
  async set(adminId: string, userId: string, isSuperuser: boolean, meta: RequestMeta = {}): Promise<User> {
    return this.ds.transaction(async (em) => {
      await lockSuperusers(em);
      const user = await em.getRepository(User).findOneBy({ id: userId });
      if (!user) throw new NotFoundError('User not found');
      if (user.isSuperuser === isSuperuser) return user;
      if (!isSuperuser && (await superuserCount(em)) <= 1) throw new ConflictError(LAST_SUPERUSER);
      await em.getRepository(User).update({ id: userId }, { isSuperuser });
      await this.activity.record(em, userId, isSuperuser ? 'superuser_granted' : 'superuser_revoked', meta, { by: adminId });
      return Object.assign(user, { isSuperuser });
    });
  }

  /** The operator's grant by email (the CLI); false when no account has it. */
  async grantByEmail(email: string, via: string): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      await lockSuperusers(em);
      const user = await em.getRepository(User).findOneBy({ email: email.trim().toLowerCase() });
      if (!user) return false;
      if (!user.isSuperuser) {
        await em.getRepository(User).update({ id: user.id }, { isSuperuser: true });
        await this.activity.record(em, user.id, 'superuser_granted', {}, { via });
      }
      return true;
    });
  }

  /**
   * The first-run bootstrap, in the caller's transaction (registration's, or its own at API start): while no
   * superuser exists, the account with ADMIN_EMAIL becomes one. Returns whether it granted.
   */
  async bootstrap(em: EntityManager = this.ds.manager): Promise<boolean> {
    if (!this.bootstrapEmail) return false;
    const run = async (tx: EntityManager) => {
      await lockSuperusers(tx);
      if ((await superuserCount(tx)) > 0) return false;
      const user = await tx.getRepository(User).findOneBy({ email: this.bootstrapEmail! });
      if (!user) return false;
      await tx.getRepository(User).update({ id: user.id }, { isSuperuser: true });
      await this.activity.record(tx, user.id, 'superuser_granted', {}, { via: 'ADMIN_EMAIL' });
      return true;
    };
    return em.queryRunner?.isTransactionActive ? run(em) : this.ds.transaction(run);
  }
}
