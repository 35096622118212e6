import { runWorkerProcess } from './run-workers';

/** Worker for the `gpu` task queue family. */
runWorkerProcess(['gpu']).catch((err) => {
  console.error(err);
  process.exit(1);
});
