import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { generateSynthetic, type SynthGenerateResult } from './generate';

export type { SynthGenerateResult };

export interface SynthgenGenerateActivities {
  generateSynthetic(input: { jobId: string }): Promise<SynthGenerateResult>;
}

/**
 * The `synthgen_generate` job's worker side (`SynthgenService.generate` queues it; the work is generate.ts): a
 * canceled run stops between batches, or stops its scoring thread, and stores nothing.
 */
export function createSynthgenGenerateActivities({ services, dataSource, store, config }: ActivityDeps): SynthgenGenerateActivities {
  const deps = { ds: dataSource, store, datasetVersions: services.datasetVersions, config };
  return {
    generateSynthetic: ({ jobId }) => jobActivity(services.jobs, jobId, 'loading the model', (progress, { signal }) => generateSynthetic(deps, jobId, progress, signal)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createSynthgenGenerateActivities;
