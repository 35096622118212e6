/**
 * Where the helper threads' script lies: histogram-worker.ts, compiled beside this file. Both
 * HistogramBuilder's helpers and binFrame's binning helper start it by path, so the path is kept
 * here once, next to the script (binFrame would silently bin alone if it pointed nowhere).
 */
import * as path from 'path';

export const HELPER_SCRIPT = path.join(__dirname, 'histogram-worker.js');
