import path from 'node:path';
import type { DataSource } from 'typeorm';
import { scratchDir } from '../../platform/scratch';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import type { Access } from '../access';
import type { DatasetVersions } from '../dataset-versions';
import type { JobService } from '../jobs';
import { BuilderRuns } from './run';
import { BuilderSessions } from './sessions';
import { BuilderSteps } from './steps';

export { AssistantError } from './steps';

/**
 * The builder (issue 35): sessions (sessions.ts), their steps' proposals, chat, edits and uploads (steps.ts), and
 * their `builder_run` jobs (run.ts; the work is in activities/builder-run/).
 */
export function createBuilder(deps: { ds: DataSource; access: Access; jobs: JobService; store: ArtifactStore; datasetVersions: DatasetVersions; config: Config }) {
  const { ds, access, jobs, store, datasetVersions, config } = deps;
  const sessions = new BuilderSessions(ds, access, store);
  // This process's own scratch folder (what a killed process leaves there is removed at the next start).
  const tmpRoot = scratchDir(path.join(config.dataDir, 'tmp'), 'builder');
  return {
    sessions,
    steps: new BuilderSteps(ds, store, datasetVersions, sessions, config, tmpRoot),
    runs: new BuilderRuns(ds, access, jobs, sessions, { store, datasetVersions }),
  };
}
