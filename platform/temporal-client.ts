import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/**
 * One Temporal client per process, connected on first use. Handed to Koa once; never a
 * connection per request.
 */
export class TemporalGateway {
  private client?: Promise<Client>;
  private connection?: Connection;
  private closing = false;

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
   * The SDK's retry of transient gRPC failures, except once close() has begun: a retry
   * scheduled on a closed channel throws from a timer, outside any caller's reach.
   */
  private retryUntilClosed() {
    const retry = defaultGrpcRetryOptions();
    return makeGrpcRetryInterceptor({
      delayFunction: retry.delayFunction,
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
    try {
      const c = await this.client;
      await c.connection.close();
    } catch {
      /* already gone */
    }
    this.client = undefined;
  }
}
