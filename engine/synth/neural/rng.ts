/**
 * The neural models' random stream: mulberry32 (as engine/automl's Rng) with its 32-bit state readable and
 * settable, so a checkpoint can hold it and a resumed fit draws the same numbers an uninterrupted one would.
 * Every random number of a fit or a sampling run (initial weights, batches, noise, dropout masks) comes from one
 * such stream (./noise.ts builds the random tensors from it), so one state determines everything.
 */
export class NeuralRng {
  state: number;

  constructor(seed: number) {
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

  /** Standard normal draw (Box-Muller; one of the pair is dropped to keep the state a single word). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
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
}

/**
 * Index drawn from a cumulative distribution (`cum` ascending, last entry the total): binary search, so a draw
 * from k categories costs O(log k).
 */
export function drawCumulative(cum: ArrayLike<number>, u: number): number {
  const target = u * cum[cum.length - 1];
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
