import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { DataSource } from 'typeorm';
import { Artifact, DatasetVersion, Experiment, Model } from '../entities';
import type { AutoMLConfig, CandidateResult, ModelSpec, RequestedKind } from '../engine/automl';
import { compareByMetric, metricKey } from '../engine/automl';
import type { ArtifactStore } from '../platform/artifact-store';
import { appendExperimentLog } from './experiment-log';
import { ThreadError, TrainingPool } from './training-pool';
import type { EnsembleBase } from './training-thread';

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

/** What a training thread returns for one model: the candidate plus its ONNX graph and SHAP summary. */
type Trained = Pick<CandidateResult, 'model' | 'metrics' | 'holdout' | 'roc' | 'varimp' | 'parameters' | 'scoringHistory' | 'trainingTimeMs' | 'predictTimePerRowMs' | 'events'> & {
  spec: { name: string };
  onnx: Uint8Array;
  shapSummary: unknown;
};

/** Out-of-fold scores as bytes: [n: u32][rows: n x u32][scores: f64...]. */
export function encodeHoldout(h: { rows: Uint32Array; scores: Float64Array }): Buffer {
  const buf = Buffer.alloc(4 + h.rows.length * 4 + h.scores.length * 8);
  buf.writeUInt32LE(h.rows.length, 0);
  Buffer.from(h.rows.buffer, h.rows.byteOffset, h.rows.byteLength).copy(buf, 4);
  Buffer.from(h.scores.buffer, h.scores.byteOffset, h.scores.byteLength).copy(buf, 4 + h.rows.length * 4);
  return buf;
}

export function decodeHoldout(buf: Buffer): { rows: Uint32Array; scores: Float64Array } {
  const n = buf.readUInt32LE(0);
  const rows = new Uint32Array(n);
  Buffer.from(rows.buffer).set(buf.subarray(4, 4 + n * 4));
  const rest = buf.subarray(4 + n * 4);
  const scores = new Float64Array(rest.length / 8);
  Buffer.from(scores.buffer).set(rest);
  return { rows, scores };
}

export interface TrainingActivities {
  prepareExperimentData(input: { experimentId: string }): Promise<PreparedPlan>;
  trainModel(input: { experimentId: string; spec: ModelSpec; sequence: number; deadlineMs: number }): Promise<TrainOutcome>;
  trainEnsembles(input: { experimentId: string; deadlineMs: number }): Promise<{ trained: number }>;
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

  async function readArtifact(a: Artifact): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of store.read(a.storageKey)) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * Stores a trained model: its JSON, its ONNX graph and (for stacking) its out-of-fold scores
   * as artifacts, and the model row with metrics and explanations, in one transaction. Files
   * are removed again if the row cannot be written. A retried activity finds its row and stops.
   */
  async function recordModel(exp: Experiment, name: string, algo: string, sequence: number, result: Trained): Promise<string> {
    const files: [string, string, string, Buffer][] = [
      ['model_binary', `${name}.model.json`, 'application/json', Buffer.from(JSON.stringify(result.model))],
      ['onnx', `${name}.onnx`, 'application/octet-stream', Buffer.from(result.onnx)],
      ['cv_predictions', `${name}.holdout.bin`, 'application/octet-stream', encodeHoldout(result.holdout)],
    ];
    const stored = await Promise.all(files.map(([, filename, , bytes]) => store.put(exp.projectId, filename, bytes)));
    try {
      const modelId = await ds.transaction(async (em) => {
        const model = em.getRepository(Model).create({ projectId: exp.projectId, experimentId: exp.id, name, algo, sequence });
        const arts = files.map(([kind, filename, contentType], i) =>
          em.getRepository(Artifact).create({ projectId: exp.projectId, kind, ownerType: 'model', ownerId: model.id, filename, contentType, sizeBytes: stored[i].sizeBytes, sha256: stored[i].sha256, storageKey: stored[i].storageKey }),
        );
        await em.getRepository(Artifact).insert(arts);
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
            cv_predictions_artifact_id: arts[2].id,
          },
          artifactId: arts[0].id,
          onnxArtifactId: arts[1].id,
          trainingTimeMs: result.trainingTimeMs,
          predictTimePerRowMs: result.predictTimePerRowMs,
        });
        await em.getRepository(Model).insert(model);
        return model.id;
      });
      const metric = (exp.config as AutoMLConfig).sort_metric;
      const value = result.metrics[metricKey(metric)];
      await appendExperimentLog(ds, exp.id, 'service', [`${name} done in ${(result.trainingTimeMs / 1000).toFixed(1)}s: ${metric} ${typeof value === 'number' ? value.toFixed(5) : value}`]);
      await appendExperimentLog(ds, exp.id, 'engine', result.events);
      const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM models WHERE experiment_id = $1', [exp.id]);
      await progress(exp.id, { models_done: n, current: null });
      return modelId;
    } catch (err) {
      for (const o of stored) store.remove(o.storageKey);
      if ((err as { code?: string }).code === '23505') return (await ds.getRepository(Model).findOneByOrFail({ experimentId: exp.id, name })).id;
      throw err;
    }
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
      await appendExperimentLog(ds, experimentId, 'service', [`training ${spec.name} (${spec.algo}), model ${sequence}, on task queue ${ctx.info.taskQueue}`]);
      let result: Trained;
      try {
        result = (await pool.run(
          { type: 'train', ...base, spec, deadlineMs },
          { signal: ctx.cancellationSignal, onProgress: (fraction, message) => (last = { fraction, message }) },
        )) as Trained;
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

      const modelId = await recordModel(exp, spec.name, spec.algo, sequence, result);
      return { status: 'trained', modelId };
    },

    async trainEnsembles({ experimentId, deadlineMs }) {
      const { exp, base } = await load(experimentId);
      const models = (await ds.getRepository(Model).find({ where: { experimentId }, order: { sequence: 'ASC' } })).filter((m) => m.algo !== 'StackedEnsemble');
      if (models.length < 2) return { trained: 0 };
      const bases: EnsembleBase[] = [];
      for (const m of models) {
        const cv = m.explain.cv_predictions_artifact_id as string | undefined;
        if (!cv) continue;
        const [modelArt, cvArt] = await Promise.all([ds.getRepository(Artifact).findOneByOrFail({ id: m.artifactId }), ds.getRepository(Artifact).findOneByOrFail({ id: cv })]);
        bases.push({
          spec: { name: m.name, algo: m.algo as ModelSpec['algo'], params: {}, origin: 'default' },
          model: JSON.parse((await readArtifact(modelArt)).toString('utf8')),
          metrics: m.metrics as CandidateResult['metrics'],
          holdout: decodeHoldout(await readArtifact(cvArt)),
          predictTimePerRowMs: m.predictTimePerRowMs,
        });
      }
      const ctx = Context.current();
      let last = { fraction: 0, message: 'stacking' };
      const beat = setInterval(() => ctx.heartbeat(last), 2000);
      await progress(experimentId, { current: 'StackedEnsemble', current_algo: 'StackedEnsemble' });
      let results: Trained[];
      try {
        results = (await pool
          .run({ type: 'ensemble', ...base, bases, deadlineMs }, { signal: ctx.cancellationSignal, onProgress: (fraction, message) => (last = { fraction, message }) })
          .catch(classify)) as Trained[];
      } finally {
        clearInterval(beat);
      }
      let sequence = models.reduce((mx, m) => Math.max(mx, m.sequence), 0);
      for (const r of results) {
        if (await ds.getRepository(Model).existsBy({ experimentId, name: r.spec.name })) continue;
        await appendExperimentLog(ds, experimentId, 'service', [`training ${r.spec.name} over ${bases.length} base models`]);
        await recordModel(exp, r.spec.name, 'StackedEnsemble', ++sequence, r);
      }
      return { trained: results.length };
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
