import { exitWithError, runWorkerProcess } from './run-workers';

/** Worker for the `gpu` task queue family; it refuses to start on a machine with no usable GPU adapter. */
runWorkerProcess(['gpu']).catch(exitWithError);
