/**
 * How a step is timed. Two figures per step, because a training loop pays one or the other:
 * - `each`: submit a step, then wait for its result (its losses read back), as a loop that logs every step does
 *   (PyTorch's `loss.item()` each step, torch_ref.py's "sync each step");
 * - `replay`: submit many steps and wait once at the end, as the engine's fits do (losses read every N steps).
 * Both are wall times per step after a warm-up, each bounded in seconds as well as in steps.
 */

/** A step made ready on a device: everything recorded once, so a step is a submit. */
export interface PreparedStep {
  /** Submits one step; does not wait. */
  submit(): void;
  /** Waits for everything submitted so far and reads back what a training loop reads (its losses). */
  readBack(): Promise<unknown>;
  destroy(): Promise<void>;
}

export interface StepTiming {
  /** ms per step, a read back after each. */
  eachMs: number;
  eachSteps: number;
  eachMedianMs: number;
  /** ms per step, one read back after `replaySteps` steps. */
  replayMs: number;
  replaySteps: number;
  /** What the last read back returned (the losses), to show the step did train. */
  last: unknown;
}

export interface MeasureLimits {
  warmupSteps: number;
  steps: number;
  seconds: number;
}

const now = (): number => performance.now();

export async function measureStep(step: PreparedStep, limits: MeasureLimits): Promise<StepTiming> {
  // Warm-up: pipelines compile lazily in some drivers, and the first submits allocate.
  const warmEnd = now() + (limits.seconds * 1000) / 4;
  for (let i = 0; i < limits.warmupSteps && now() < warmEnd; i++) {
    step.submit();
    await step.readBack();
  }
  const times: number[] = [];
  const eachEnd = now() + (limits.seconds * 1000) / 2;
  const t0 = now();
  while (times.length < limits.steps && (times.length === 0 || now() < eachEnd)) {
    const t = now();
    step.submit();
    await step.readBack();
    times.push(now() - t);
  }
  const eachTotal = now() - t0;
  // As many replayed steps as the `each` loop managed in its time (at least one), so the two share a budget.
  const replaySteps = Math.max(1, times.length);
  const r0 = now();
  for (let i = 0; i < replaySteps; i++) step.submit();
  const last = await step.readBack();
  const replayTotal = now() - r0;
  const sorted = [...times].sort((a, b) => a - b);
  return {
    eachMs: eachTotal / times.length,
    eachSteps: times.length,
    eachMedianMs: sorted[Math.floor(sorted.length / 2)],
    replayMs: replayTotal / replaySteps,
    replaySteps,
    last,
  };
}
