/** Count, mean and sample variance of a stream of numbers (Welford's update: stable for large values). */
export interface Moments {
  n: number;
  mean: number;
  /** Sample variance (n − 1 in the denominator); 0 below two observations. */
  variance: number;
}

export class RunningMoments implements Moments {
  n = 0;
  mean = 0;
  private m2 = 0;

  add(x: number): this {
    this.n += 1;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
    return this;
  }

  get variance(): number {
    return this.n > 1 ? this.m2 / (this.n - 1) : 0;
  }

  /** A plain snapshot (the accumulator keeps counting). */
  snapshot(): Moments {
    return { n: this.n, mean: this.mean, variance: this.variance };
  }
}

export function momentsOf(xs: Iterable<number>): Moments {
  const m = new RunningMoments();
  for (const x of xs) m.add(x);
  return m.snapshot();
}
