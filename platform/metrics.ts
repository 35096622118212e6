import http from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Bounded label values for metrics whose natural label is an id: the first `max` distinct values are kept as they
 * are, later ones share `overflow`. A process that sees more ids than that (an API serving thousands of models) keeps
 * a fixed number of series instead of one per id forever, and the overflow series says that it happened.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(
    private readonly max: number,
    readonly overflow = '_other',
  ) {}

  /** The label value to use for `value`. */
  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return this.overflow;
    this.seen.add(value);
    return value;
  }
}

/**
 * A registry with prom-client's default process metrics (CPU, resident memory, heap, event-loop lag, GC, open
 * handles), under their usual names so stock Node.js dashboards work. One registry per API or worker set, not the
 * global one: tests run an API and workers in one process, and each must expose only its own series.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) from `registry` on its own port: the workers have no HTTP server
 * of their own, and a scrape must not depend on any task queue. Anything else is a 404.
 */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
