import { Client, Connection } from '@temporalio/client';

/**
 * One Temporal client per process, connected on first use. Handed to Koa once; never a
 * connection per request.
 */
export class TemporalGateway {
  private client?: Promise<Client>;
  private connection?: Connection;

  constructor(
    readonly address: string,
    readonly namespace: string,
  ) {}

  get(): Promise<Client> {
    if (!this.client) {
      this.client = Connection.connect({ address: this.address, connectTimeout: '5s' }).then((connection) => {
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

  /** True when the frontend answers a health check within a few seconds. */
  async reachable(): Promise<boolean> {
    try {
      await this.get();
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000).unref());
      await Promise.race([this.connection!.healthService.check({}), timeout]);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (!this.client) return;
    try {
      const c = await this.client;
      await c.connection.close();
    } catch {
      /* already gone */
    }
    this.client = undefined;
  }
}
