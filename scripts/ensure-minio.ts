import { ensureMinio } from '../platform/minio';

/** Makes the MinIO server the S3 tests run against available (built once with Go, cached in ~/.cache/mlsvc/bin) and prints its path. */
try {
  console.log(ensureMinio());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
