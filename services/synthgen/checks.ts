import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readParquetFrame, selectRows } from '../../engine/automl';
import { evaluateQuality, privacyCheck, type SynthConditions } from '../../engine/synth';
import type { JsonMap } from '../../entities';
import { createNativeGate, nativeSection, terminateOutsideNative } from '../../platform/native-gate';
import { distributions, rowsMeeting } from './frames';

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

/** What checks-thread.ts receives. */
export interface ChecksThreadData {
  input: ChecksInput;
  gate: SharedArrayBuffer;
}

type ThreadAnswer = { ok: true; result: { quality: JsonMap; privacy: JsonMap } } | { ok: false; name: string; message: string };

/**
 * {@link computeChecks} in a worker thread (checks-thread.ts): the metrics are synchronous and can hold a thread for
 * seconds, which would stall the worker's heartbeats (and, where the API shares the process, its requests). An abort
 * terminates the thread, outside its DuckDB reads (platform/native-gate.ts).
 */
export function computeChecksInThread(input: ChecksInput, signal?: AbortSignal): Promise<{ quality: JsonMap; privacy: JsonMap }> {
  return new Promise((resolve, reject) => {
    const gate = createNativeGate();
    const worker = new Worker(path.join(__dirname, 'checks-thread.js'), { workerData: { input, gate } satisfies ChecksThreadData });
    let settled = false;
    const finish = (err: unknown, result?: { quality: JsonMap; privacy: JsonMap }) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void terminateOutsideNative(worker, gate);
      if (err) reject(err);
      else resolve(result!);
    };
    const onAbort = () => finish(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: ThreadAnswer) => {
      if (m.ok) finish(null, m.result);
      else finish(Object.assign(new Error(m.message), { name: m.name }));
    });
    worker.on('error', (err) => finish(err));
    worker.on('exit', (code) => finish(new Error(`the quality thread exited with code ${code}`)));
  });
}
