import type { DataSource } from 'typeorm';
import { DataValidationError, type QualityPolicy } from '../../engine/data';
import { DataError } from '../../services/errors';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import type { DatasetVersions } from '../../services/dataset-versions';

/** What the `builder_run` job's work reads and writes. */
export interface BuilderWorkDeps {
  ds: DataSource;
  store: ArtifactStore;
  datasetVersions: DatasetVersions;
  /** Where a run's working files go (the uploads' scratch folder). */
  tmpRoot: string;
  limits: Config['limits'];
  qualityPolicy: (projectId: string) => Promise<Partial<QualityPolicy>>;
}

/** Runs the engine, its refusals of the data (an operation that does not fit, a value that does not convert) as DataErrors: the job fails once, with the message. */
export async function engineWork<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DataValidationError) throw new DataError(err.message);
    throw err;
  }
}
