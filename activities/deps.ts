import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Services } from '../services';
import type { TrainingPool } from './automl-train/training-pool';
import type { OutageWait } from './failures';

/** What every kind's activities are built from (one set per worker process): `create<Kind>Activities(deps)`. */
export interface ActivityDeps {
  /** The application layer: the commands and queries the routes use, and what both sides share. */
  services: Services;
  /** The database, for the persistence of a job's own work (its result rows), which lives with the kind's activities. */
  dataSource: DataSource;
  /** The artifact store, for the files a job writes (its output, its checkpoints). */
  store: ArtifactStore;
  /** The process's configuration (limits and options of a job's work). */
  config: Config;
  /** Worker threads for CPU-bound training, one per concurrent training activity. */
  trainingPool: TrainingPool;
  /** How an activity hit by an infrastructure outage waits for the database before its next attempt. */
  outageWait?: OutageWait;
}
