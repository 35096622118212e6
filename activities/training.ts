import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { DataSource } from 'typeorm';
import { Artifact, DatasetVersion, Experiment, Model } from '../entities';
import type { AutoMLConfig, CandidateResult, ModelSpec } from '../engine/automl/driver';
import { compareByMetric, metricKey } from '../engine/automl/driver';
import type { RequestedKind } from '../engine/automl/frame';
import type { ArtifactStore } from '../platform/artifact-store';
import { appendExperimentLog } from './experiment-log';
import { ThreadError, TrainingPool } from './training-pool';

export interface PreparedPlan {
  kind: string;
  rows: number;
  plan: ModelSpec[];
  maxRuntimeSecs: number;
  maxModels: number;
  perModelSecs: number | null;
  excludeEnsembles: boolean;
}

export interface TrainOutcome {
  status: 'trained' | 'skipped' | 'failed';
  modelId?: string;
  message?: string;
}

export interface TrainingActivities {
  prepareExperimentData(input: { experimentId: string }): Promise<PreparedPlan>;
  trainModel(input: { experimentId: string; spec: ModelSpec; sequence: number; deadlineMs: number }): Promise<TrainOutcome>;
  finishExperiment(input: { experimentId: string; outcome: 'succeeded' | 'canceled' }): Promise<{ best_model_id: string | null; model_count: number }>;
  logExperiment(input: { experimentId: string; lines: string[]; level?: 'info' | 'warn' }): Promise<void>;
}

/** Training activities: data preparation, one model per call, and choosing the best model. */
export function createTrainingActivities(ds: DataSource, store: ArtifactStore, pool: TrainingPool): TrainingActivities {
  async function load(experimentId: string) {
    const exp = await ds.getRepository(Experiment).findOneBy({ id: experimentId });
    if (!exp) throw ApplicationFailure.nonRetryable(`Experiment ${experimentId} no longer exists`, 'NotFoundError');
    const version = await ds.getRepository(DatasetVersion).findOneBy({ id: exp.datasetVersionId });
    if (!version) throw ApplicationFailure.nonRetryable('The dataset version of this experiment no longer exists', 'NotFoundError');
    const artifact = await ds.getRepository(Artifact).findOneByOrFail({ id: version.artifactId });
    const base = {
      experimentId,
      parquetPath: store.pathOf(artifact.storageKey),
      target: exp.targetColumn,
      requestedKind: (exp.problemKind === 'regression' ? 'regression' : 'classification') as RequestedKind,
      config: exp.config as AutoMLConfig,
    };
    return { exp, base };
  }

  /** Engine errors named DataError are the user's data: fail the experiment, do not retry. */
  function classify(err: unknown): never {
    if (err instanceof ThreadError && err.errorName === 'DataError') throw ApplicationFailure.nonRetryable(err.message, 'DataError');
    throw err;
  }

  async function progress(experimentId: string, patch: Record<string, unknown>) {
    await ds.query(`UPDATE experiments SET progress = progress || $2::jsonb, updated_at = now() WHERE id = $1`, [experimentId, JSON.stringify(patch)]);
  }

  return {
    async prepareExperimentData({ experimentId }) {
      const { exp, base } = await load(experimentId);
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat({ step: 'preparing' }), 2000);
      try {
        const out = (await pool.run({ type: 'prepare', ...base }, { signal: ctx.cancellationSignal }).catch(classify)) as { kind: string; rows: number; log: string[]; plan: ModelSpec[] };
        const config = exp.config as AutoMLConfig;
        await appendExperimentLog(ds, experimentId, 'engine', out.log);
        await appendExperimentLog(ds, experimentId, 'service', [
          `data prepared: ${out.rows} rows, problem kind ${out.kind}; planned ${out.plan.length} models: ${out.plan.map((p) => p.name).join(', ')}`,
        ]);
        await progress(experimentId, { models_done: 0, models_planned: out.plan.length, current: null, budget_secs: config.max_runtime_secs, elapsed_secs: 0 });
        return {
          kind: out.kind, rows: out.rows, plan: out.plan, maxRuntimeSecs: config.max_runtime_secs, maxModels: config.max_models,
          perModelSecs: config.max_runtime_secs_per_model, excludeEnsembles: config.exclude_algos.includes('StackedEnsemble'),
        };
      } finally {
        clearInterval(beat);
      }
    },

    async trainModel({ experimentId, spec, sequence, deadlineMs }) {
      const existing = await ds.getRepository(Model).findOneBy({ experimentId, name: spec.name });
      if (existing) return { status: 'trained', modelId: existing.id, message: 'already recorded' };
      const { exp, base } = await load(experimentId);
      const ctx = Context.current();
      let last = { fraction: 0, message: 'starting' };
      const beat = setInterval(() => ctx.heartbeat(last), 2000);
      await progress(experimentId, { current: spec.name, current_algo: spec.algo });
      await appendExperimentLog(ds, experimentId, 'service', [`training ${spec.name} (${spec.algo}), model ${sequence}`]);
      let result: CandidateResult & { onnx: Uint8Array; shapSummary: unknown };
      try {
        result = (await pool.run(
          { type: 'train', ...base, spec, deadlineMs },
          { signal: ctx.cancellationSignal, onProgress: (fraction, message) => (last = { fraction, message }) },
        )) as CandidateResult & { onnx: Uint8Array; shapSummary: unknown };
      } catch (err) {
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
        if (err instanceof ThreadError && err.errorName === 'ModelBudgetExceeded') {
          await appendExperimentLog(ds, experimentId, 'service', [`${spec.name} stopped: time budget exhausted`], 'warn');
          return { status: 'skipped', message: err.message };
        }
        if (err instanceof ThreadError) {
          await appendExperimentLog(ds, experimentId, 'service', [`${spec.name} failed: ${err.message}`], 'warn');
          return { status: 'failed', message: err.message };
        }
        throw err;
      } finally {
        clearInterval(beat);
      }

      const modelBytes = Buffer.from(JSON.stringify(result.model));
      const storedModel = await store.put(exp.projectId, `${spec.name}.model.json`, modelBytes);
      const storedOnnx = await store.put(exp.projectId, `${spec.name}.onnx`, Buffer.from(result.onnx));
      try {
        const modelId = await ds.transaction(async (em) => {
          const model = em.getRepository(Model).create({ projectId: exp.projectId, experimentId, name: spec.name, algo: spec.algo, sequence });
          const art = (kind: string, filename: string, contentType: string, o: typeof storedModel) =>
            em.getRepository(Artifact).create({ projectId: exp.projectId, kind, ownerType: 'model', ownerId: model.id, filename, contentType, sizeBytes: o.sizeBytes, sha256: o.sha256, storageKey: o.storageKey });
          const a1 = art('model_binary', `${spec.name}.model.json`, 'application/json', storedModel);
          const a2 = art('onnx', `${spec.name}.onnx`, 'application/octet-stream', storedOnnx);
          await em.getRepository(Artifact).insert([a1, a2]);
          Object.assign(model, {
            isBest: false, isProduction: false, isStaging: false, stagingDeploymentId: null,
            metrics: result.metrics,
            parameters: result.parameters,
            explain: {
              variable_importance: result.varimp,
              roc_curve: result.roc ? { fpr: Array.from(result.roc.fpr), tpr: Array.from(result.roc.tpr) } : null,
              scoring_history: result.scoringHistory,
              shap_summary: result.shapSummary,
              events: result.events,
            },
            artifactId: a1.id,
            onnxArtifactId: a2.id,
            trainingTimeMs: result.trainingTimeMs,
            predictTimePerRowMs: result.predictTimePerRowMs,
          });
          await em.getRepository(Model).insert(model);
          return model.id;
        });
        const metric = (exp.config as AutoMLConfig).sort_metric;
        const value = result.metrics[metricKey(metric)];
        await appendExperimentLog(ds, experimentId, 'service', [`${spec.name} done in ${(result.trainingTimeMs / 1000).toFixed(1)}s: ${metric} ${typeof value === 'number' ? value.toFixed(5) : value}`]);
        await appendExperimentLog(ds, experimentId, 'engine', result.events);
        const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM models WHERE experiment_id = $1', [experimentId]);
        await progress(experimentId, { models_done: n, current: null });
        return { status: 'trained', modelId };
      } catch (err) {
        store.remove(storedModel.storageKey);
        store.remove(storedOnnx.storageKey);
        if ((err as { code?: string }).code === '23505') {
          const again = await ds.getRepository(Model).findOneByOrFail({ experimentId, name: spec.name });
          return { status: 'trained', modelId: again.id };
        }
        throw err;
      }
    },

    async finishExperiment({ experimentId, outcome }) {
      const exp = await ds.getRepository(Experiment).findOneByOrFail({ id: experimentId });
      const models = await ds.getRepository(Model).findBy({ experimentId });
      const sortMetric = (exp.config as AutoMLConfig).sort_metric;
      const ranked = [...models].sort((a, b) => compareByMetric(sortMetric)(a.metrics, b.metrics) || a.sequence - b.sequence);
      const best = ranked[0];
      if (!best && outcome === 'succeeded') {
        throw ApplicationFailure.nonRetryable('No model could be trained within the time and model budget', 'DataError');
      }
      await ds.transaction(async (em) => {
        await em.getRepository(Model).update({ experimentId }, { isBest: false });
        if (best) await em.getRepository(Model).update({ id: best.id }, { isBest: true });
        await em.getRepository(Experiment).update({ id: experimentId }, { bestModelId: best?.id ?? null });
      });
      await appendExperimentLog(ds, experimentId, 'service', [
        best ? `leader: ${best.name} (${sortMetric} ${best.metrics[metricKey(sortMetric)]}) of ${models.length} models` : `no models (${outcome})`,
      ]);
      return { best_model_id: best?.id ?? null, model_count: models.length };
    },

    async logExperiment({ experimentId, lines, level }) {
      await appendExperimentLog(ds, experimentId, 'service', lines, level ?? 'info');
    },
  };
}
