import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../platform/artifact-store';
import { createJobActivities } from './jobs';
import { createExportActivities } from './project-export';

export interface ActivityDeps {
  dataSource: DataSource;
  store: ArtifactStore;
}

/** All activities, built from injected dependencies (one DataSource and store per worker). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createJobActivities(deps.dataSource),
    ...createExportActivities(deps.dataSource, deps.store),
  };
}
