// The module itself, not engine/automl's index: GPU trainers and bench/gpu's bundle load this without automl's native bindings.
import { Rng } from '../../automl/random';

/**
 * The neural models' random stream: mulberry32 (as engine/automl's Rng) with its 32-bit state readable and
 * settable, so a checkpoint can hold it and a resumed fit draws the same numbers an uninterrupted one would.
 * Every random number of a fit or a sampling run (initial weights, batches, noise, dropout masks) comes from one
 * such stream (./noise.ts builds the random tensors from it), so one state determines everything.
 */
export class NeuralRng extends Rng {
  /** Standard normal draw (Box-Muller; one of the pair is dropped to keep the state a single word). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
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
