import { ensureTemporalTestServer } from '../platform/temporal-test-server';

/** Makes the Temporal time-skipping test server available (cached in ~/.cache/mlsvc) and prints its launcher. */
try {
  console.log(ensureTemporalTestServer());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
