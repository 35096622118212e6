import fs from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { DatasetVersion, Experiment, Model, RetrainingJob, RetrainingPolicy, type RetrainingEvaluation } from '../../entities';
import { type AutoMLConfig, readParquetFrame } from '../../engine/automl';
import { writeRankedRows } from '../../engine/data';
import type { Services } from '../../services';
import { DataError, NotFoundError } from '../../services/errors';
import type { JobProgress } from '../job-activity';
import { actualValues, holdoutMetric, improvementOf } from './holdout-metric';

export interface EvaluateDeps {
  ds: DataSource;
  services: Services;
}

/**
 * The evaluation of a trained retraining: its best model is registered as a new version of the registered model with
 * the alias `challenger`; then the challenger and the champion are scored on the same holdout (the rows of the new
 * data the experiment never saw, drawn again from the seeded split) on the gate's metric, and the gate decides.
 * Returns whether it passed, and why not.
 */
export async function evaluateRetraining({ ds, services }: EvaluateDeps, retrainingJobId: string, progress: JobProgress): Promise<{ passed: boolean; reason: string }> {
  const repo = ds.getRepository(RetrainingJob);
  const rj = await repo.findOneBy({ id: retrainingJobId });
  if (!rj) throw new NotFoundError('Retraining job no longer exists');
  if (rj.state === 'training') await repo.update({ id: rj.id, state: 'training' }, { state: 'evaluating' });
  const policy = await ds.getRepository(RetrainingPolicy).findOneBy({ id: rj.policyId });
  const experiment = rj.experimentId ? await ds.getRepository(Experiment).findOneBy({ id: rj.experimentId }) : null;
  const best = experiment?.bestModelId ? await ds.getRepository(Model).findOneBy({ id: experiment.bestModelId }) : null;
  if (!policy || !experiment) throw new NotFoundError('The retraining experiment no longer exists');
  if (!best) throw new DataError('The retraining experiment trained no model');
  const championVersion = rj.championVersionId ? await services.registry.getVersion(rj.championVersionId) : null;
  const champion = championVersion && (await ds.getRepository(Model).findOneBy({ id: championVersion.modelId }));
  if (!champion) throw new NotFoundError("The champion's model no longer exists");

  let challengerVersionId = rj.challengerVersionId;
  if (!challengerVersionId) {
    await progress(10, 'registering the challenger');
    const v = await services.registry.registerVersion(rj.createdBy, rj.registeredModelId, best.id, {
      description: `Challenger of retraining ${rj.id} (policy ${policy.name})`,
      tags: { retraining_job_id: rj.id },
      aliases: ['challenger'],
    });
    challengerVersionId = v.id;
    await repo.update({ id: rj.id }, { challengerVersionId });
  }

  await progress(40, 'scoring the challenger and the champion on the holdout');
  const sortMetric = policy.gate.metric ?? (experiment.config as AutoMLConfig).sort_metric;
  const source = rj.datasetVersionId ? await ds.getRepository(DatasetVersion).findOneBy({ id: rj.datasetVersionId }) : null;
  if (!source || !rj.holdoutRows) throw new NotFoundError('The retrained dataset version no longer exists');
  fs.mkdirSync(services.datasets.tmpRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(services.datasets.tmpRoot, 'holdout-'));
  let evaluation: RetrainingEvaluation;
  try {
    const holdoutPath = path.join(dir, 'holdout.parquet');
    const rows = await writeRankedRows(await services.datasetVersions.parquetPath(source), holdoutPath, { seed: rj.holdoutSeed, offset: 0, limit: rj.holdoutRows });
    const frame = await readParquetFrame(holdoutPath);
    const actual = actualValues(frame, experiment.targetColumn);
    const score = async (m: Model) => holdoutMetric(await services.serving.predictFrame(m, null, frame), actual, sortMetric);
    const [championValue, challengerValue] = [await score(champion), await score(best)];
    const improvement = Number.isFinite(championValue) && Number.isFinite(challengerValue) ? improvementOf(sortMetric, championValue, challengerValue) : NaN;
    const passed = Number.isFinite(improvement) && improvement >= policy.gate.min_improvement;
    evaluation = {
      metric: sortMetric,
      champion: finite(championValue),
      challenger: finite(challengerValue),
      improvement: finite(improvement),
      holdout_rows: rows,
      passed,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await repo.update({ id: rj.id }, { evaluation });
  const reason = evaluation.passed
    ? `The challenger beat the champion on ${evaluation.metric} by ${evaluation.improvement} (at least ${policy.gate.min_improvement} asked)`
    : evaluation.improvement === null
      ? `${evaluation.metric} could not be measured on the ${evaluation.holdout_rows} holdout rows`
      : `The challenger's ${evaluation.metric} (${evaluation.challenger}) does not beat the champion's (${evaluation.champion}) by ${policy.gate.min_improvement}: improvement ${evaluation.improvement}; production is unchanged`;
  return { passed: evaluation.passed, reason };
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
