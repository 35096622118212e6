/**
 * A map whose entries expire after a fixed time. Used for short-lived decisions on the hot
 * path (API-key principals, model access) so that busy clients do not pay a database round
 * trip per request. Bounded by starting over when full: entries are cheap to rebuild.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /**
   * The cached value, or `load()`'s, cached. Callers missing the same key at the same time
   * share one load, so an expiry under load costs one round trip, not one per request.
   * A failed load is not cached.
   */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    let p = this.loading.get(key);
    if (!p) {
      p = load()
        .then((value) => {
          this.set(key, value);
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, p);
    }
    return p;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  deleteWhere(pred: (key: K, value: V) => boolean): void {
    for (const [k, e] of this.entries) if (pred(k, e.value)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}
