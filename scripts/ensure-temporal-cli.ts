import { ensureTemporalCli } from '../platform/temporal-dev';

/** Makes the Temporal CLI available (cached in ~/.cache/mlsvc/bin) and prints its path. */
ensureTemporalCli()
  .then((p) => console.log(p))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
