import type { Services } from '../services';
import { createAutomlTrainActivities, TrainingPool } from './automl-train';
import { configureOutageWait, OutageWait } from './failures';
import { createDatasetProfileActivities } from './dataset-profile';
import { createDriftComputeActivities } from './drift-compute';
import { createJobLifecycleActivities } from './job-lifecycle';
import { createPrivacyDetectActivities } from './privacy-detect';
import { createPrivacyTransformActivities } from './privacy-transform';
import { createProjectExportActivities } from './project-export';
import { createReportGenerateActivities } from './report-generate';
import { createSynthgenGenerateActivities } from './synthgen-generate';
import { createSynthgenTrainActivities } from './synthgen-train';

export interface ActivityDeps {
  /** The application layer: activities persist through the same services the routes use. */
  services: Services;
  /** Worker threads for CPU-bound training, one per concurrent training activity. */
  trainingPool: TrainingPool;
  /** How an activity hit by an infrastructure outage waits for the database before its next attempt. */
  outageWait?: OutageWait;
}

export { TrainingPool };

/**
 * All activities, built from injected dependencies (one set of services per worker process).
 * One file (or folder) per job kind, named like its workflow.
 */
export function createActivities(deps: ActivityDeps) {
  if (deps.outageWait) configureOutageWait(deps.outageWait);
  return {
    ...createJobLifecycleActivities(deps.services),
    ...createProjectExportActivities(deps.services),
    ...createDatasetProfileActivities(deps.services),
    ...createAutomlTrainActivities(deps.services, deps.trainingPool),
    ...createDriftComputeActivities(deps.services),
    ...createReportGenerateActivities(deps.services),
    ...createPrivacyDetectActivities(deps.services),
    ...createPrivacyTransformActivities(deps.services),
    ...createSynthgenTrainActivities(deps.services),
    ...createSynthgenGenerateActivities(deps.services),
  };
}
