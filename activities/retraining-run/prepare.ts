import fs from 'node:fs';
import type { DataSource } from 'typeorm';
import path from 'node:path';
import { Dataset, DatasetVersion, Experiment, RetrainingJob, RetrainingPolicy } from '../../entities';
import { writeRankedRows } from '../../engine/data';
import type { Services } from '../../services';
import { withStagedTable } from '../../services/dataset-versions';
import { DataError, NotFoundError } from '../../services/errors';
import { championLineage, SLICE_SOURCE_KEY, type SliceOrigin } from '../../services/retraining';
import type { JobProgress } from '../job-activity';

/** The share of the new data held out from training, on which the challenger and the champion are both scored. */
export const HOLDOUT_FRACTION = 0.2;
/** A holdout smaller than this says nothing; smaller data is refused. */
const MIN_HOLDOUT_ROWS = 5;

export interface PrepareDeps {
  ds: DataSource;
  services: Services;
}

/**
 * The training side of a retraining: the latest version of the champion's dataset is split by a seeded hash of its
 * rows (engine/data `writeRankedRows`): the first HOLDOUT_FRACTION of the ranks are the holdout, the rest is committed
 * as a version of the policy's slices dataset (its `source` names the retraining and the split), and an experiment
 * with the champion's configuration (and the policy's overrides) trains on that slice. Each step is kept on the job's
 * row as it is done, so a retried attempt goes on from there.
 */
export async function startExperiment({ ds, services }: PrepareDeps, retrainingJobId: string, progress: JobProgress): Promise<{ experimentId: string }> {
  const repo = ds.getRepository(RetrainingJob);
  const rj = await repo.findOneBy({ id: retrainingJobId });
  if (!rj) throw new NotFoundError('Retraining job no longer exists');
  if (rj.experimentId) return { experimentId: rj.experimentId };
  await repo.update({ id: rj.id, state: 'queued' }, { state: 'training' });
  const policy = await ds.getRepository(RetrainingPolicy).findOneBy({ id: rj.policyId });
  const champion = rj.championVersionId ? await services.registry.getVersion(rj.championVersionId) : null;
  const lineage = champion && (await championLineage(ds, champion));
  if (!policy || !lineage) throw new NotFoundError("The champion's model, experiment or training data no longer exists");
  const source = await ds.getRepository(DatasetVersion).findOne({ where: { datasetId: lineage.datasetId }, order: { version: 'DESC' } });
  const dataset = await ds.getRepository(Dataset).findOneBy({ id: lineage.datasetId });
  if (!source || !dataset) throw new NotFoundError("The champion's dataset no longer exists");

  let trainingVersionId = rj.trainingVersionId;
  if (!trainingVersionId) {
    await progress(10, `splitting ${dataset.name} v${source.version}: a ${Math.round(HOLDOUT_FRACTION * 100)}% holdout`);
    trainingVersionId = await commitTrainingSlice({ ds, services }, { rj, policy, dataset, source });
  }
  await progress(40, 'starting the experiment');
  const exp = lineage.experiment;
  if (!rj.createdBy) throw new DataError("Nobody to train as: the retraining's user no longer exists");
  const { experiment } = await services.experiments.create(rj.createdBy, {
    project_id: rj.projectId,
    dataset_version_id: trainingVersionId,
    name: `${policy.name}: retraining ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
    target_column: exp.targetColumn,
    problem_type: exp.problemType,
    config: { ...(exp.config as Record<string, unknown>), ...policy.experiment },
    use_gpu: exp.useGpu,
  });
  await repo.update({ id: rj.id }, { experimentId: experiment.id });
  return { experimentId: experiment.id };
}

async function commitTrainingSlice({ ds, services }: PrepareDeps, p: { rj: RetrainingJob; policy: RetrainingPolicy; dataset: Dataset; source: DatasetVersion }): Promise<string> {
  const { rj, policy, dataset, source } = p;
  const n = source.rowCount;
  const holdout = Math.max(MIN_HOLDOUT_ROWS, Math.round(n * HOLDOUT_FRACTION));
  if (n - holdout < MIN_HOLDOUT_ROWS * 2) throw new DataError(`${dataset.name} v${source.version} has ${n} rows: too few to hold out ${holdout} and train on the rest`);
  fs.mkdirSync(services.datasets.tmpRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(services.datasets.tmpRoot, 'retraining-'));
  try {
    const trainPath = path.join(dir, 'training.parquet');
    await writeRankedRows(await services.datasetVersions.parquetPath(source), trainPath, { seed: rj.holdoutSeed, offset: holdout, limit: n - holdout });
    const origin: SliceOrigin = { retraining_job_id: rj.id, source_dataset_id: dataset.id, source_version_id: source.id, holdout_rows: holdout, seed: rj.holdoutSeed };
    // The policy's slices dataset (its first run makes it; deleting it makes the next run start a new one).
    const sliceDataset = policy.sliceDatasetId;
    const committed = await withStagedTable(trainPath, services.datasets.tmpRoot, async (staged) =>
      services.datasetVersions.commit({
        projectId: rj.projectId,
        dataset: sliceDataset
          ? { id: sliceDataset, name: dataset.name, description: '' }
          : {
              name: `${dataset.name} (retraining slices: ${policy.name})`.slice(0, 200),
              description: `Training slices of ${dataset.name} made by the retraining policy ${policy.name}: each version leaves out the rows its retraining held out`,
            },
        description: `${dataset.name} v${source.version} without its ${holdout} holdout rows (retraining ${rj.id})`,
        staged,
        policy: await services.datasets.qualityPolicy(rj.projectId),
        origin: { filename: 'training-slice.parquet', [SLICE_SOURCE_KEY]: origin },
        userId: rj.createdBy,
      }),
    );
    if (!sliceDataset) await ds.getRepository(RetrainingPolicy).update({ id: policy.id }, { sliceDatasetId: committed.dataset.id });
    await ds.getRepository(RetrainingJob).update({ id: rj.id }, { datasetVersionId: source.id, trainingVersionId: committed.version.id, holdoutRows: holdout });
    return committed.version.id;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The experiment's status while the workflow waits for it; a failed or canceled one fails the retraining. */
export async function experimentStatus(ds: DataSource, retrainingJobId: string): Promise<'training' | 'trained'> {
  const rj = await ds.getRepository(RetrainingJob).findOneBy({ id: retrainingJobId });
  const exp = rj?.experimentId ? await ds.getRepository(Experiment).findOneBy({ id: rj.experimentId }) : null;
  if (!exp) throw new NotFoundError('The retraining experiment no longer exists');
  if (exp.status === 'succeeded') return 'trained';
  if (exp.status === 'failed' || exp.status === 'canceled') throw new DataError(`The retraining experiment ${exp.status}${exp.error ? `: ${exp.error}` : ''}`);
  return 'training';
}
