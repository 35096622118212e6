/**
 * Joins concurrent calls for the same key onto one run: the first caller starts `fn`, the ones that arrive
 * before it settles get the same promise. Nothing is kept after it settles (a failure is not cached; the next
 * call runs again). Used where two users asking at once would otherwise double a long computation, such as
 * the first `analyze` of a large dataset version.
 */
export class SingleFlight<V> {
  private readonly running = new Map<string, Promise<V>>();

  run(key: string, fn: () => Promise<V>): Promise<V> {
    const current = this.running.get(key);
    if (current) return current;
    const started = fn().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  /** Keys with a run in progress. */
  get size(): number {
    return this.running.size;
  }
}
