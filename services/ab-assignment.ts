import { createHash } from 'node:crypto';
import type { AbVariant } from '../entities';

/**
 * The variant a caller's key is assigned in a test: a point in [0, 1) from SHA-256 of `<test id>:<key>` walks the
 * variants' cumulative weights. The same key lands on the same variant for the life of the test (weights only change
 * in draft), and keys are spread independently across tests, so one test's split does not shape another's.
 */
export function assignVariant(testId: string, key: string, variants: readonly AbVariant[]): AbVariant {
  const digest = createHash('sha256').update(`${testId}:${key}`).digest();
  const point = digest.readUIntBE(0, 6) / 2 ** 48;
  const total = variants.reduce((s, v) => s + v.weight, 0);
  let edge = 0;
  for (const v of variants) {
    edge += v.weight / total;
    if (point < edge) return v;
  }
  // Rounding can leave the last edge a hair under 1.
  return variants[variants.length - 1];
}
