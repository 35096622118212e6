import type { ActivityDeps } from '../deps';
import type { SynthGenerateResult } from '../../services/synthgen/runs';
import { jobActivity } from '../job-activity';

export interface SynthgenGenerateActivities {
  generateSynthetic(input: { jobId: string }): Promise<SynthGenerateResult>;
}

/** The `synthgen_generate` job's activity (see `SynthgenRuns.generate`); a canceled run stops between batches and stores nothing. */
export function createSynthgenGenerateActivities({ services: { jobs, synthgenRuns } }: ActivityDeps): SynthgenGenerateActivities {
  return {
    generateSynthetic: ({ jobId }) => jobActivity(jobs, jobId, 'loading the model', (progress, { signal }) => synthgenRuns.generate(jobId, progress, signal)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createSynthgenGenerateActivities;
