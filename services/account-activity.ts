import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountEvent, AccountEventType } from '../entities';
import type { Logger } from '../platform/logger';
import type { Page, PageQuery } from './lists';

/** Where a request came from, as the activity log keeps it. */
export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** Old events are deleted at most this often per process. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The account activity log: logins (and failed logins on the account), API keys created and revoked,
 * password changes and resets, sessions revoked, logout-all, profile changes, each with its time, address
 * and user agent. Read by the account's owner only (`GET /api/auth/my-activity`).
 *
 * An event of an action that writes is written by {@link record} inside that action's transaction: both
 * are kept or neither. An event with nothing else to write (a failed login) is a pure log: {@link recordLater}
 * writes it off the request path, so neither its failure nor its duration shows in the answer (a failed login
 * on a known email must take as long as one on an unknown email).
 */
export class AccountActivity {
  private lastPrune = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly log: Logger,
    private readonly retentionDays: number,
  ) {}

  /** Writes an event in the caller's transaction. */
  async record(em: EntityManager, userId: string, type: AccountEventType, meta: RequestMeta = {}, details: Record<string, unknown> = {}): Promise<void> {
    // clock_timestamp(), not now(): two events of one transaction keep their order.
    await em.query(`INSERT INTO account_events (id, user_id, type, ip, user_agent, details, created_at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())`, [
      randomUUID(),
      userId,
      type,
      meta.ip?.slice(0, 100) || null,
      meta.userAgent?.slice(0, 500) || null,
      JSON.stringify(details),
    ]);
    this.maybePrune();
  }

  /** Writes a pure-log event after the answer; a failure is logged, never answered. */
  recordLater(userId: string, type: AccountEventType, meta: RequestMeta = {}, details: Record<string, unknown> = {}): void {
    void this.record(this.ds.manager, userId, type, meta, details).catch((err: unknown) => this.log.warn({ err, type }, 'account event not recorded'));
  }

  /** The user's own events, newest first. */
  async list(userId: string, q: PageQuery): Promise<Page<AccountEvent>> {
    const [items, total] = await this.ds
      .getRepository(AccountEvent)
      .createQueryBuilder('e')
      .where('e.user_id = :userId', { userId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .skip(q.offset)
      .take(q.limit)
      .getManyAndCount();
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** Events past the retention are dead weight: dropped now and then, off the request path. */
  private maybePrune(): void {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    void this.ds
      .query('DELETE FROM account_events WHERE created_at < $1', [new Date(now - this.retentionDays * 86_400_000)])
      .catch((err: unknown) => this.log.warn({ err }, 'pruning account events failed'));
  }
}
