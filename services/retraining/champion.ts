import type { DataSource } from 'typeorm';
import { DatasetVersion, Experiment, Model, RegistryVersion } from '../../entities';
import type { RegistryVersionRef, RetrainingRegistry } from './ports';

/** The key a training slice's version records its source under (`dataset_versions.source`). */
export const SLICE_SOURCE_KEY = 'retraining';

/** What a training slice's version records of where it came from. */
export interface SliceOrigin {
  retraining_job_id: string;
  source_dataset_id: string;
  source_version_id: string;
  holdout_rows: number;
  seed: number;
}

/**
 * The registered model's champion: the version aliased `champion`, else its version in production (a registry used
 * without aliases); null when it has neither.
 */
export async function championOf(ds: DataSource, registry: RetrainingRegistry, registeredModelId: string): Promise<RegistryVersionRef | null> {
  const aliased = await registry.versionByAlias(registeredModelId, 'champion');
  if (aliased) return aliased;
  return ds.getRepository(RegistryVersion).findOne({ where: { registeredModelId, stage: 'production' }, order: { createdAt: 'DESC' } });
}

/** The champion's model, experiment and the dataset it was trained on (through a training slice, the slice's source). */
export async function championLineage(ds: DataSource, champion: RegistryVersionRef): Promise<{ model: Model; experiment: Experiment; datasetId: string } | null> {
  const model = await ds.getRepository(Model).findOneBy({ id: champion.modelId });
  const experiment = model && (await ds.getRepository(Experiment).findOneBy({ id: model.experimentId }));
  const version = experiment && (await ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId }));
  if (!model || !experiment || !version) return null;
  const slice = sliceOrigin(version);
  return { model, experiment, datasetId: slice?.source_dataset_id ?? version.datasetId };
}

/** The retraining a version is a training slice of, or null for any other version. */
export function sliceOrigin(v: Pick<DatasetVersion, 'source'>): SliceOrigin | null {
  const s = (v.source as Record<string, unknown>)[SLICE_SOURCE_KEY];
  return s && typeof s === 'object' ? (s as SliceOrigin) : null;
}
