import { ensureStripeMock } from '../platform/stripe-mock';

/** Makes stripe-mock, the Stripe API mock billing's tests run against, available (built once with Go, cached in ~/.cache/mlsvc/bin) and prints its path. */
try {
  console.log(ensureStripeMock());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
