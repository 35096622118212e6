import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { trainSynthesizer, type SynthTrainResult } from './train';

export type { SynthTrainResult };

export interface SynthgenTrainActivities {
  /**
   * Fits a synthgen model and stores it. `gpuFallbackSecs` is set when the workflow sent it to ml-cpu because no GPU
   * worker took it in time (the job's log says so).
   */
  trainSynthesizer(input: { jobId: string; modelId: string; gpuFallbackSecs?: number }): Promise<SynthTrainResult>;
}

/**
 * The `synthgen_train` job's worker side (`SynthgenService.create` queues it; the work is train.ts). Neural models fit
 * in the engine's own worker thread, so this event loop keeps heartbeating on the fit's progress and pulses; a cancel
 * aborts the fit between batches, and a retried attempt (a killed worker) resumes from the latest checkpoint.
 */
export function createSynthgenTrainActivities({ services, dataSource, store, config }: ActivityDeps): SynthgenTrainActivities {
  const deps = { ds: dataSource, store, datasetVersions: services.datasetVersions, config };
  return {
    trainSynthesizer: ({ jobId, modelId, gpuFallbackSecs }) =>
      jobActivity(services.jobs, jobId, 'reading the training data', (progress, { attempt, signal, taskQueue, keepAlive }) =>
        trainSynthesizer(deps, jobId, modelId, { attempt, taskQueue, gpuFallbackSecs, signal, progress, keepAlive }),
      ),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createSynthgenTrainActivities;
