/**
 * Where the helper threads' script lies: histogram-worker.ts, compiled beside this file. Both
 * HistogramBuilder's helpers and binFrame's binning helper start it by path, so the path is kept
 * here once, next to the script (binFrame would silently bin alone if it pointed nowhere).
 */
import * as path from 'path';
import { threadScript } from '../../../platform/threads';
import type { BinningTask } from '../binning';
import type { HistogramHelperInit } from './histogram-threads';

export const HELPER_SCRIPT = path.join(__dirname, 'histogram-worker.js');

/** histogram-worker.ts: a binning task or a histogram helper's arrays in; no messages (all work is in shared memory). */
export const HELPER_THREAD = threadScript<BinningTask | HistogramHelperInit>(HELPER_SCRIPT);
