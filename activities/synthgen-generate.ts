import { Context } from '@temporalio/activity';
import type { Services } from '../services';
import type { SynthGenerateResult } from '../services/synthgen/runs';
import { jobActivity } from './job-activity';

export interface SynthgenGenerateActivities {
  generateSynthetic(input: { jobId: string }): Promise<SynthGenerateResult>;
}

/** The `synthgen_generate` job's activity (see `SynthgenRuns.generate`); a canceled run stops between batches and stores nothing. */
export function createSynthgenGenerateActivities({ jobs, synthgenRuns }: Services): SynthgenGenerateActivities {
  return {
    generateSynthetic: ({ jobId }) => jobActivity(jobs, jobId, 'loading the model', (progress) => synthgenRuns.generate(jobId, progress, Context.current().cancellationSignal)),
  };
}
