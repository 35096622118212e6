import path from 'node:path';
import { type Frame, readParquetFrame, selectRows } from '../../engine/automl';
import { evaluateQuality, privacyCheck, type SynthConditions } from '../../engine/synth';
import type { JsonMap } from '../../entities';
import { nativeSection, startThread, threadScript } from '../../platform/threads';
import { distributions } from './distributions';

/** With conditions, real rows meeting them are the quality report's reference when at least this many exist. */
const MIN_CONDITIONED_REAL_ROWS = 20;

/** Where the samples a generation is judged on lie (Parquet files written by `writeRankedRows`). */
export interface ChecksInput {
  /** A sample of the model's training rows. */
  realPath: string;
  /** A sample of the output. */
  syntheticPath: string;
  /** The rows held out of training, or null when none were (with the reason in `noHoldout`). */
  holdoutPath: string | null;
  noHoldout: string;
  conditions: SynthConditions;
}

/**
 * The quality report (SDMetrics' definitions) of the output sample against the training sample (the rows meeting the
 * conditions, when enough do), with per-column distributions, and the distance-to-closest-record privacy check
 * against the holdout.
 */
export async function computeChecks(input: ChecksInput): Promise<{ quality: JsonMap; privacy: JsonMap }> {
  const real = await nativeSection(() => readParquetFrame(input.realPath));
  const synthetic = await nativeSection(() => readParquetFrame(input.syntheticPath));
  let reference = real;
  let note = `${real.nrows} training rows`;
  if (Object.keys(input.conditions).length) {
    const meeting = rowsMeeting(real, input.conditions);
    if (meeting.length >= MIN_CONDITIONED_REAL_ROWS) {
      reference = selectRows(real, meeting);
      note = `${meeting.length} training rows meeting the conditions`;
    } else note = `${real.nrows} training rows (fewer than ${MIN_CONDITIONED_REAL_ROWS} meet the conditions)`;
  }
  const quality: JsonMap = {
    ...evaluateQuality(reference, synthetic),
    real_rows: reference.nrows,
    synthetic_rows: synthetic.nrows,
    reference: note,
    distributions: distributions(reference, synthetic),
  };
  let privacy: JsonMap = { skipped: input.noHoldout };
  const holdoutPath = input.holdoutPath;
  if (holdoutPath) {
    const holdout = await nativeSection(() => readParquetFrame(holdoutPath));
    privacy = { ...privacyCheck(real, holdout, synthetic), holdout_rows: holdout.nrows, training_rows_compared: real.nrows };
  }
  return { quality, privacy };
}

/** The rows of a frame that meet the conditions (engine terms), as row indexes. */
function rowsMeeting(frame: Frame, conditions: SynthConditions): number[] {
  const tests = Object.entries(conditions).map(([name, value]) => {
    const c = frame.columns[frame.names.indexOf(name)];
    if (!c) return () => false;
    if (c.kind === 'categorical') {
      const code = c.levels.indexOf(String(value));
      return (i: number) => c.codes[i] === code;
    }
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    return (i: number) => values[i] === value;
  });
  const rows: number[] = [];
  for (let i = 0; i < frame.nrows; i++) if (tests.every((t) => t(i))) rows.push(i);
  return rows;
}

type Checks = { quality: JsonMap; privacy: JsonMap };

/** checks-thread.ts: the input in, the checks or the error's name and message out. */
export const CHECKS_THREAD = threadScript<ChecksInput, never, { type: 'result'; result: Checks } | { type: 'error'; name: string; message: string }>(path.join(__dirname, 'checks-thread.js'));

/**
 * {@link computeChecks} in a worker thread (checks-thread.ts): the metrics are synchronous and can hold a thread for
 * seconds, which would stall the worker's heartbeats (and, where the API shares the process, its requests). An abort
 * stops the thread, outside its DuckDB reads (platform/threads).
 */
export function computeChecksInThread(input: ChecksInput, signal?: AbortSignal): Promise<Checks> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: unknown, result?: Checks) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void thread.stop();
      if (err) reject(err);
      else resolve(result!);
    };
    const onAbort = () => finish(signal?.reason ?? new Error('aborted'));
    const thread = startThread(CHECKS_THREAD, input, {
      messages: {
        result: (m) => finish(null, m.result),
        error: (m) => finish(Object.assign(new Error(m.message), { name: m.name })),
      },
      error: (err) => finish(err),
      exit: (code) => finish(new Error(`the quality thread exited with code ${code}`)),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
