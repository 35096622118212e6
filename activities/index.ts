import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../platform/artifact-store';
import { createJobActivities } from './jobs';
import { createExportActivities } from './project-export';
import { createProfileActivities } from './dataset-profile';
import { createTrainingActivities } from './training';
import { TrainingPool } from './training-pool';

export interface ActivityDeps {
  dataSource: DataSource;
  store: ArtifactStore;
  /** Worker threads for CPU-bound training, one per concurrent training activity. */
  trainingPool: TrainingPool;
}

export { TrainingPool };

/** All activities, built from injected dependencies (one DataSource and store per worker). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createJobActivities(deps.dataSource),
    ...createExportActivities(deps.dataSource, deps.store),
    ...createProfileActivities(deps.dataSource, deps.store),
    ...createTrainingActivities(deps.dataSource, deps.store, deps.trainingPool),
  };
}
