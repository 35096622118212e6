import { runWorkerProcess } from './run-workers';

/** Worker for the `cpu` task queue family. */
runWorkerProcess(['cpu']).catch((err) => {
  console.error(err);
  process.exit(1);
});
