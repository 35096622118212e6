import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { Logger } from './logger';

/** The first wait before a lost listening connection is opened again; it doubles up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;
/** A `caughtUp` round trip slower than this counts as a lost connection (a half-open TCP connection never answers). */
const PING_TIMEOUT_MS = 5_000;

/** A channel name is an SQL identifier written into `LISTEN`: only plain lower-case names are accepted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PgListenerOptions {
  /** The database the process uses (the same server every process of the service talks to). */
  url: string;
  channel: string;
  log: Logger;
  /** Each notification's payload, in the order the server sent them. */
  onMessage(payload: string): void;
  /**
   * Called when listening starts again after the connection was lost: notifications sent meanwhile are gone, so
   * whatever they would have invalidated must be dropped wholesale.
   */
  onResumed(): void;
}

/**
 * One PostgreSQL connection of its own per process that LISTENs on one channel (a pooled connection cannot: the pool
 * hands it to queries and the registration goes with it). When the connection drops (a database restart, a network
 * cut) it is opened again with backoff, and `onResumed` tells the owner that it may have missed messages.
 */
export class PgListener {
  private client: Client | null = null;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  /** The round trip in flight of {@link caughtUp}, and the one queued behind it. */
  private pinging: Promise<boolean> | null = null;
  private queued: Promise<boolean> | null = null;
  /** Set when a connection was lost or could not be made: notifications may have been missed. */
  private missed = false;

  constructor(private readonly opts: PgListenerOptions) {
    if (!CHANNEL_NAME.test(opts.channel)) throw new Error(`Invalid notification channel name: ${opts.channel}`);
  }

  /** Resolves once listening (the first attempt; a failed one is retried in the background and logged). */
  async start(): Promise<void> {
    await this.connect();
  }

  /**
   * Resolves true once every notification committed before this call has been handed to `onMessage`; false when not
   * listening (the caller must then not rely on having seen them). PostgreSQL sends a session its pending
   * notifications before the answer to its next statement, so one `SELECT 1` on the listening connection that
   * starts after this call is enough. Callers arriving while one is in flight share the next one (a round trip that
   * began before them proves nothing about what was committed just before they came).
   */
  caughtUp(): Promise<boolean> {
    if (!this.client) return Promise.resolve(false);
    if (!this.pinging) {
      this.pinging = this.ping().finally(() => (this.pinging = null));
      return this.pinging;
    }
    this.queued ??= this.pinging.then(() => {
      this.queued = null;
      return this.caughtUp();
    });
    return this.queued;
  }

  private async ping(): Promise<boolean> {
    const c = this.client;
    if (!c) return false;
    try {
      await c.query('SELECT 1');
      return true;
    } catch (err) {
      // A connection that does not answer (query_timeout) or failed: open a new one; meanwhile callers are told false.
      c.emit('error', err as Error);
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.opts.url,
      // Named, so an operator (and a test) finds the listening connections in pg_stat_activity.
      application_name: `mlsvc listener ${this.opts.channel}`,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      query_timeout: PING_TIMEOUT_MS,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      this.missed = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.opts.log.warn({ err, channel: this.opts.channel, retryInMs: this.retryMs }, 'notification listener lost its database connection; reconnecting');
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (n) => {
      if (n.channel === this.opts.channel) this.opts.onMessage(n.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.opts.channel}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    if (this.missed) {
      this.missed = false;
      this.opts.log.info({ channel: this.opts.channel }, 'notification listener connected again');
      this.opts.onResumed();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}

/**
 * Sends `payload` to every process listening on `channel` (on this connection's commit: at once outside a
 * transaction). Payloads are limited to 8000 bytes by PostgreSQL.
 */
export async function pgNotify(ds: DataSource, channel: string, payload: string): Promise<void> {
  await ds.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
