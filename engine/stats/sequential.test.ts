import { RunningMoments } from './moments';
import { msprt, sequentialTest, type SequentialOptions } from './sequential';

/** A seeded uniform generator (mulberry32), so every run draws the same experiments. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Draw = (u: () => number) => number;
const bernoulli =
  (p: number): Draw =>
  (u) =>
    u() < p ? 1 : 0;
/** A skewed, revenue-like outcome: exponential with this mean. */
const exponential =
  (mean: number): Draw =>
  (u) =>
    -mean * Math.log(1 - u());

interface Run {
  /** The first look at which the test decided, and what. */
  decided: { look: number; winner: number } | null;
  /** Whether the confidence sequence of arm 1 held `trueEffect` at every look. */
  covered: boolean;
  /** Whether a fixed-horizon z-test looked at after every batch would have rejected at some look. */
  naiveRejected: boolean;
}

/**
 * One experiment checked continuously: every arm gets `batch` observations, then the test is read, until
 * `maxPerArm` observations per arm (a test that never decides runs to the end).
 */
function simulate(arms: Draw[], o: SequentialOptions & { batch: number; maxPerArm: number; seed: number; trueEffect?: number }): Run {
  const u = rng(o.seed);
  const acc = arms.map(() => new RunningMoments());
  const run: Run = { decided: null, covered: true, naiveRejected: false };
  for (let look = 1; look * o.batch <= o.maxPerArm; look++) {
    for (let i = 0; i < o.batch; i++) arms.forEach((draw, a) => acc[a].add(draw(u)));
    const r = sequentialTest(
      acc.map((m) => m.snapshot()),
      o,
    );
    if (!run.decided && r.decision) run.decided = { look, winner: r.decision.winner };
    const c = r.comparisons[0];
    if (o.trueEffect !== undefined && c.ciLow !== null && c.ciHigh !== null && (o.trueEffect < c.ciLow || o.trueEffect > c.ciHigh)) run.covered = false;
    const [c0, c1] = [acc[0], acc[1]];
    const se = Math.sqrt(c0.variance / c0.n + c1.variance / c1.n);
    if (c0.n >= o.minSamples && se > 0 && Math.abs(c1.mean - c0.mean) / se > 1.959964) run.naiveRejected = true;
  }
  return run;
}

function many(count: number, arms: Draw[], o: Omit<Parameters<typeof simulate>[1], 'seed'>): Run[] {
  return Array.from({ length: count }, (_, i) => simulate(arms, { ...o, seed: 1000 + i }));
}

const share = (runs: Run[], f: (r: Run) => boolean) => runs.filter(f).length / runs.length;

describe('mSPRT under the null: looking after every batch does not inflate false positives', () => {
  test('200 conversion experiments (20% vs 20%) checked after every 20 visitors per arm: false-positive rate ≤ alpha', () => {
    const runs = many(200, [bernoulli(0.2), bernoulli(0.2)], { alpha: 0.05, minSamples: 100, higherIsBetter: true, batch: 20, maxPerArm: 4000 });
    const fp = share(runs, (r) => r.decided !== null);
    expect(fp).toBeLessThanOrEqual(0.05);
    // The same looks with a fixed-horizon z-test reject far more often than alpha: the simulation would see inflation.
    expect(share(runs, (r) => r.naiveRejected)).toBeGreaterThan(0.15);
  });

  test('200 revenue experiments with three arms (Bonferroni) and a skewed outcome: false-positive rate ≤ alpha', () => {
    const runs = many(200, [exponential(20), exponential(20), exponential(20)], { alpha: 0.05, minSamples: 100, higherIsBetter: true, batch: 25, maxPerArm: 3000 });
    expect(share(runs, (r) => r.decided !== null)).toBeLessThanOrEqual(0.05);
  });

  test('200 experiments at alpha 0.01 with small batches from the first observations: false-positive rate ≤ alpha', () => {
    const runs = many(200, [bernoulli(0.5), bernoulli(0.5)], { alpha: 0.01, minSamples: 10, higherIsBetter: true, batch: 5, maxPerArm: 2000 });
    expect(share(runs, (r) => r.decided !== null)).toBeLessThanOrEqual(0.01);
  });
});

describe('mSPRT with a known effect', () => {
  test('20% vs 30% conversion concludes for the treatment, with the effect inside its interval', () => {
    const runs = many(100, [bernoulli(0.2), bernoulli(0.3)], { alpha: 0.05, minSamples: 100, higherIsBetter: true, batch: 20, maxPerArm: 4000, trueEffect: 0.1 });
    expect(share(runs, (r) => r.decided?.winner === 1)).toBeGreaterThanOrEqual(0.95);
    expect(share(runs, (r) => r.decided !== null && r.decided.winner !== 1)).toBe(0);
    // The confidence sequence holds the true effect at every look in at least 1 − alpha of the experiments.
    expect(share(runs, (r) => r.covered)).toBeGreaterThanOrEqual(0.95);
  });

  test('the decision states the winner, the effect and an always-valid interval that excludes 0', () => {
    const u = rng(7);
    const a = new RunningMoments();
    const b = new RunningMoments();
    let decision = null;
    for (let n = 0; n < 5000 && !decision; n++) {
      a.add(bernoulli(0.2)(u));
      b.add(bernoulli(0.35)(u));
      decision = sequentialTest([a.snapshot(), b.snapshot()], { alpha: 0.05, minSamples: 100, higherIsBetter: true }).decision;
    }
    expect(decision).not.toBeNull();
    expect(decision!.winner).toBe(1);
    expect(decision!.against).toBe(0);
    expect(decision!.pValue).toBeLessThan(0.05);
    expect(decision!.ciLow).toBeGreaterThan(0);
    expect(decision!.ciLow).toBeLessThan(decision!.effect);
    expect(decision!.ciHigh).toBeGreaterThan(decision!.effect);
    expect(decision!.effect).toBeGreaterThan(0.05);
    expect(decision!.effect).toBeLessThan(0.3);
  });

  test('a better control wins, its margin stated from its side', () => {
    const runs = many(50, [bernoulli(0.35), bernoulli(0.2)], { alpha: 0.05, minSamples: 100, higherIsBetter: true, batch: 20, maxPerArm: 4000 });
    expect(share(runs, (r) => r.decided?.winner === 0)).toBeGreaterThanOrEqual(0.95);
    const a = { n: 2000, mean: 0.35, variance: 0.35 * 0.65 };
    const b = { n: 2000, mean: 0.2, variance: 0.2 * 0.8 };
    const d = sequentialTest([a, b], { alpha: 0.05, minSamples: 100, higherIsBetter: true }).decision!;
    expect(d).toMatchObject({ winner: 0, against: 1 });
    expect(d.effect).toBeCloseTo(0.15, 10);
    expect(d.ciLow).toBeGreaterThan(0);
  });

  test('a loss: the lower mean wins', () => {
    const runs = many(50, [exponential(0.7), exponential(0.45)], { alpha: 0.05, minSamples: 100, higherIsBetter: false, batch: 20, maxPerArm: 4000 });
    expect(share(runs, (r) => r.decided?.winner === 1)).toBeGreaterThanOrEqual(0.95);
  });

  test('three arms: the best treatment wins, a treatment that is only worse does not end the test', () => {
    const runs = many(50, [bernoulli(0.2), bernoulli(0.22), bernoulli(0.35)], { alpha: 0.05, minSamples: 100, higherIsBetter: true, batch: 20, maxPerArm: 4000 });
    expect(share(runs, (r) => r.decided?.winner === 2)).toBeGreaterThanOrEqual(0.9);
    const arms = [
      { n: 5000, mean: 0.3, variance: 0.21 },
      { n: 5000, mean: 0.1, variance: 0.09 },
      { n: 5000, mean: 0.3, variance: 0.21 },
    ];
    const r = sequentialTest(arms, { alpha: 0.05, minSamples: 100, higherIsBetter: true });
    expect(r.adjustedAlpha).toBeCloseTo(0.025, 12);
    expect(r.comparisons.map((c) => c.significant)).toEqual([true, false]);
    expect(r.decision).toBeNull();
  });

  test('no decision before min_samples, however large the effect', () => {
    const r = sequentialTest(
      [
        { n: 49, mean: 0.1, variance: 0.09 },
        { n: 49, mean: 0.9, variance: 0.09 },
      ],
      { alpha: 0.05, minSamples: 50, higherIsBetter: true },
    );
    expect(r.comparisons[0].pValue).toBeLessThan(1e-6);
    expect(r.comparisons[0].significant).toBe(false);
    expect(r.decision).toBeNull();
  });
});

describe('msprt', () => {
  test('matches the balanced formula of Johari et al. (v = 2σ²/n)', () => {
    const sigma2 = 0.25;
    const n = 400;
    const delta = 0.05;
    const r = msprt({ n, mean: 0.5, variance: sigma2 }, { n, mean: 0.5 + delta, variance: sigma2 }, 0.05, 1000);
    const tau2 = ((2 * Math.log(20) + Math.log(1 + 2 * Math.log(20))) * 2 * sigma2) / 1000;
    const V = 2 * sigma2;
    const lambda = Math.sqrt(V / (V + n * tau2)) * Math.exp((n * n * tau2 * delta * delta) / (2 * V * (V + n * tau2)));
    expect(r.pValue).toBeCloseTo(Math.min(1, 1 / lambda), 12);
  });

  test('nothing to measure: fewer than two observations or no spread', () => {
    expect(msprt({ n: 1, mean: 0, variance: 0 }, { n: 1, mean: 1, variance: 0 }, 0.05, 100)).toEqual({ effect: 1, ciLow: null, ciHigh: null, pValue: 1 });
    expect(msprt({ n: 50, mean: 0, variance: 0 }, { n: 50, mean: 0, variance: 0 }, 0.05, 100).pValue).toBe(1);
  });

  test('the interval is where the p-value of the shifted hypothesis crosses alpha', () => {
    const c = { n: 300, mean: 10, variance: 16 };
    const t = { n: 280, mean: 11.5, variance: 20 };
    const r = msprt(c, t, 0.05, 1000);
    // Shifting the treatment by the interval's bound makes "difference = bound" the null: its p-value is alpha.
    const atBound = msprt(c, { ...t, mean: t.mean - (r.ciHigh as number) }, 0.05, 1000);
    expect(atBound.pValue).toBeCloseTo(0.05, 9);
  });
});
