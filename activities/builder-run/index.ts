import type { BuilderRunAction } from '../../services/builder/run';
import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { finalizeSession, replayRecipe, type CommitResult } from './commit';
import { executeStep, type ExecuteStepResult } from './execute-step';
import type { BuilderWorkDeps } from './work-deps';

export type BuilderRunResult = ExecuteStepResult | CommitResult;

export interface BuilderRunActivities {
  runBuilder(input: { jobId: string } & BuilderRunAction): Promise<BuilderRunResult>;
}

/**
 * The `builder_run` job's worker side (`services/builder/run.ts` queues it): a step's execution (execute-step.ts),
 * finalize or a recipe's replay (commit.ts). DuckDB does the work; a cancel aborts it and keeps no file.
 */
export function createBuilderRunActivities({ services, dataSource, store, config }: ActivityDeps): BuilderRunActivities {
  const deps: BuilderWorkDeps = {
    ds: dataSource,
    store,
    datasetVersions: services.datasetVersions,
    tmpRoot: services.datasets.tmpRoot,
    limits: config.limits,
    qualityPolicy: (projectId) => services.datasets.qualityPolicy(projectId),
  };
  return {
    runBuilder: ({ jobId, ...a }) =>
      jobActivity(
        services.jobs,
        jobId,
        a.action === 'execute' ? 'executing the step' : a.action === 'finalize' ? 'finalizing' : 'replaying the recipe',
        (progress, frame): Promise<BuilderRunResult> => {
          if (a.action === 'execute') return executeStep(deps, a.sessionId, a.stepId, progress, frame);
          if (a.action === 'finalize') return finalizeSession(deps, a, progress, frame);
          return replayRecipe(deps, a, progress, frame);
        },
      ),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createBuilderRunActivities;
