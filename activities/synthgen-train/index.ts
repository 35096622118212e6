import type { ActivityDeps } from '../deps';
import type { SynthTrainResult } from '../../services/synthgen/runs';
import { jobActivity } from '../job-activity';

export interface SynthgenTrainActivities {
  /**
   * Fits a synthgen model and stores it. `gpuFallbackSecs` is set when the workflow sent it to ml-cpu because no GPU
   * worker took it in time (the job's log says so).
   */
  trainSynthesizer(input: { jobId: string; modelId: string; gpuFallbackSecs?: number }): Promise<SynthTrainResult>;
}

/**
 * The `synthgen_train` job's activity (see `SynthgenRuns.train`). Neural models fit in the engine's own worker
 * thread, so this event loop keeps heartbeating; a cancel aborts the fit between batches, and a retried attempt
 * (a killed worker) resumes from the latest checkpoint.
 */
export function createSynthgenTrainActivities({ services: { jobs, synthgenRuns } }: ActivityDeps): SynthgenTrainActivities {
  return {
    trainSynthesizer: ({ jobId, modelId, gpuFallbackSecs }) =>
      jobActivity(jobs, jobId, 'reading the training data', (progress, { attempt, signal, taskQueue }) =>
        synthgenRuns.train(jobId, modelId, { attempt, taskQueue, gpuFallbackSecs, signal, progress }),
      ),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createSynthgenTrainActivities;
