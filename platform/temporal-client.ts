import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/**
 * One Temporal client per process, connected on first use. Handed to Koa once; never a
 * connection per request.
 */
export class TemporalGateway {
  private client?: Promise<Client>;
  private connection?: Connection;
  private closing = false;
  /** When the last retry the interceptor scheduled fires; close() waits for it (see retryUntilClosed). */
  private retriesDueBy = 0;

  constructor(
    readonly address: string,
    readonly namespace: string,
  ) {}

  get(): Promise<Client> {
    if (!this.client) {
      this.closing = false;
      this.client = Connection.connect({ address: this.address, connectTimeout: '5s', interceptors: [this.retryUntilClosed()] }).then((connection) => {
        this.connection = connection;
        return new Client({ connection, namespace: this.namespace });
      });
      // A failed connect must not poison later attempts.
      this.client.catch(() => {
        this.client = undefined;
      });
    }
    return this.client;
  }

  /**
   * The SDK's retry of transient gRPC failures, except once close() has begun. A retry fires
   * from a timer and creates its call on the channel; on a closed channel that throws outside
   * any caller's reach (an uncaught exception). So no retry is scheduled once closing, and
   * close() keeps the channel open until those already scheduled have fired and given up.
   */
  private retryUntilClosed() {
    const retry = defaultGrpcRetryOptions();
    return makeGrpcRetryInterceptor({
      delayFunction: (attempt, status) => {
        const ms = retry.delayFunction(attempt, status);
        this.retriesDueBy = Math.max(this.retriesDueBy, Date.now() + ms);
        return ms;
      },
      retryableDecider: (attempt, status) => !this.closing && retry.retryableDecider(attempt, status),
    });
  }

  /** True when the frontend answers a health check within a few seconds. */
  async reachable(): Promise<boolean> {
    try {
      await this.get();
      // A deadline ends the call itself; a raced timeout would leave it running (and retrying).
      await this.connection!.withDeadline(Date.now() + 3000, () => this.connection!.healthService.check({}));
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (!this.client) return;
    this.closing = true;
    // At most the SDK's longest backoff (5 s), and only while Temporal was failing calls.
    const pending = this.retriesDueBy - Date.now();
    if (pending > 0) await new Promise((resolve) => setTimeout(resolve, pending + 50));
    try {
      const c = await this.client;
      await c.connection.close();
    } catch {
      /* already gone */
    }
    this.client = undefined;
  }
}
