import { runWorkerProcess } from './run-workers';

/** Worker for the `io` task queue family. */
runWorkerProcess(['io']).catch((err) => {
  console.error(err);
  process.exit(1);
});
