/**
 * Small seeded PRNG (mulberry32). Every stochastic choice in the tree learners draws from one
 * of these so that a seed fully determines the trained model.
 */
export class Rng {
  /** The generator's whole state (one 32-bit word): readable and settable, so a checkpoint can hold it. */
  state: number;

  constructor(seed: number) {
    // Mix the seed so that nearby seeds (1, 2, 3...) give unrelated streams.
    this.state = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) >>> 0 || 0x6d2b79f5;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T extends { length: number; [i: number]: number }>(a: T): T {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  /** A new seed derived from this stream, for child generators (one per tree). */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
}

/**
 * Picks k distinct integers from [0, n) (sorted ascending), or all of them when k >= n.
 * Sorted output keeps downstream row access sequential.
 */
export function sampleWithoutReplacement(n: number, k: number, rng: Rng): Uint32Array {
  if (k >= n) {
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  // Selection sampling (Knuth's algorithm S): one pass, no extra memory, sorted output.
  const out = new Uint32Array(k);
  let chosen = 0;
  for (let i = 0; i < n && chosen < k; i++) {
    if ((n - i) * rng.next() < k - chosen) out[chosen++] = i;
  }
  return out;
}
