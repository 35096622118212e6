import type { DataSource } from 'typeorm';
import type { Logger } from '../platform/logger';
import { PgListener, pgNotify } from '../platform/pg-listener';

/** The PostgreSQL notification channel on which API processes tell each other which cached key principals to drop. */
export const KEY_REVOCATIONS_CHANNEL = 'mlsvc_key_revocations';

/** What a process drops: keys by prefix (a revoked key), or every key of a user (suspended, deleted, password reset). */
export type KeyRevocation = { prefixes: string[] } | { userId: string };

/** What the key cache needs of the broadcast: a way to tell the other processes, and to know it has heard them. */
export interface KeyRevocationFeed {
  publish(revocation: KeyRevocation): Promise<void>;
  /** True once every revocation published before the call has been applied here; false while not listening. */
  caughtUp(): Promise<boolean>;
}

/**
 * Revocations shared by every API process on one database through LISTEN/NOTIFY: `publish` sends one (committed
 * before the request that revoked answers), `listen` hands each one received to the process's key cache, and
 * `caughtUp` lets the cache make sure, before it trusts an entry, that it has applied every revocation committed
 * until then (a notification is pushed, but it may still be on its way when the next request arrives). The embedded
 * database is a real PostgreSQL server (platform/embedded-postgres.ts), so the same path serves `npm start`'s
 * defaults and an external server.
 */
export class KeyRevocationBroadcast implements KeyRevocationFeed {
  private listener: PgListener | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly log: Logger,
  ) {}

  /**
   * Publishes a revocation. A failure is logged, not thrown: the revocation itself is already committed, and the other
   * processes' cached principals then expire on their own within seconds (KeyCache's fallback).
   */
  async publish(revocation: KeyRevocation): Promise<void> {
    await pgNotify(this.ds, KEY_REVOCATIONS_CHANNEL, JSON.stringify(revocation)).catch((err: unknown) =>
      this.log.warn({ err }, 'key revocation not broadcast: other API processes drop the key when their cache entry expires'),
    );
  }

  /** Starts this process's listening connection on `url`: `cache` applies each revocation, and is cleared after a gap. */
  async listen(url: string, cache: { apply(r: KeyRevocation): void; clear(): void }): Promise<void> {
    this.listener = new PgListener({
      url,
      channel: KEY_REVOCATIONS_CHANNEL,
      log: this.log,
      onMessage: (payload) => {
        const r = parseRevocation(payload);
        if (r) cache.apply(r);
        else this.log.warn({ payload: payload.slice(0, 200) }, 'unreadable key revocation notification ignored');
      },
      onResumed: () => cache.clear(),
    });
    await this.listener.start();
  }

  caughtUp(): Promise<boolean> {
    return this.listener ? this.listener.caughtUp() : Promise.resolve(false);
  }

  async close(): Promise<void> {
    await this.listener?.stop();
  }
}

/** A payload another process published, or null when it is not one (anything may NOTIFY on a channel). */
export function parseRevocation(payload: string): KeyRevocation | null {
  try {
    const v = JSON.parse(payload) as { prefixes?: unknown; userId?: unknown };
    if (Array.isArray(v.prefixes) && v.prefixes.every((p) => typeof p === 'string')) return { prefixes: v.prefixes as string[] };
    if (typeof v.userId === 'string') return { userId: v.userId };
  } catch {
    /* not JSON */
  }
  return null;
}
