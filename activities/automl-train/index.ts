import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Experiment } from '../../entities';
import type { AutoMLConfig, CandidateResult, ModelSpec } from '../../engine/automl';
import { metricKey } from '../../engine/automl';
import type { RequestedKind } from '../../engine/automl';
import type { Services } from '../../services';
import { domainFailures } from '../failures';
import { decodeHoldout, encodeHoldout } from './holdout';
import { ThreadError, TrainingPool } from './training-pool';
import type { EnsembleBase } from './training-thread';

export { TrainingPool };

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

export interface TrainModelInput {
  experimentId: string;
  spec: ModelSpec;
  /** The model's place in the plan (1-based). */
  sequence: number;
  /** When training must stop (ms since the epoch): the budget's end, or earlier with a per-model budget. */
  deadlineMs: number;
  /**
   * With a per-model budget (runs since parallel training): the budget's end and the model's own budget, which counts
   * from when this activity starts, so a model that waited on the training queue still gets all of it.
   */
  budgetDeadlineMs?: number;
  perModelMs?: number;
}

export interface AutomlTrainActivities {
  prepareExperimentData(input: { experimentId: string }): Promise<PreparedPlan>;
  trainModel(input: TrainModelInput): Promise<TrainOutcome>;
  trainEnsembles(input: { experimentId: string; deadlineMs: number }): Promise<{ trained: number }>;
  finishExperiment(input: { experimentId: string; outcome: 'succeeded' | 'canceled' }): Promise<{ best_model_id: string | null; model_count: number }>;
  logExperiment(input: { experimentId: string; lines: string[]; level?: 'info' | 'warn' }): Promise<void>;
}

/** Engine errors named DataError (raised in the training thread) are the user's data: do not retry. */
function classifyThreadError(err: unknown): never {
  if (err instanceof ThreadError && err.errorName === 'DataError') throw ApplicationFailure.nonRetryable(err.message, 'DataError');
  throw err;
}

/**
 * The `automl_train` job's activities: data preparation, one model per call (in a worker
 * thread, so heartbeats flow and a cancel stops it at once), the stacked ensembles, and choosing
 * the best model. Persistence goes through the experiment and model services.
 */
export function createAutomlTrainActivities(services: Services, pool: TrainingPool): AutomlTrainActivities {
  const { experiments, models } = services;

  async function load(experimentId: string) {
    const { experiment: exp, parquetPath, maxCells } = await experiments.trainingInput(experimentId);
    const base = {
      experimentId,
      parquetPath,
      maxCells,
      target: exp.targetColumn,
      requestedKind: (exp.problemKind === 'regression' ? 'regression' : 'classification') as RequestedKind,
      config: exp.config as AutoMLConfig,
    };
    return { exp, base };
  }

  /** Records a trained model with its files, then its engine events in the experiment's log. */
  async function record(exp: Experiment, name: string, algo: string, sequence: number, result: Trained): Promise<string> {
    const modelId = await models.recordTrained(exp.id, {
      name,
      algo,
      sequence,
      files: {
        modelJson: Buffer.from(JSON.stringify(result.model)),
        onnx: Buffer.from(result.onnx),
        holdout: encodeHoldout(result.holdout),
        fields: {
          metrics: result.metrics,
          parameters: result.parameters,
          explain: {
            variable_importance: result.varimp,
            roc_curve: result.roc ? { fpr: Array.from(result.roc.fpr), tpr: Array.from(result.roc.tpr) } : null,
            scoring_history: result.scoringHistory,
            shap_summary: result.shapSummary,
            events: result.events,
          },
          trainingTimeMs: result.trainingTimeMs,
          predictTimePerRowMs: result.predictTimePerRowMs,
        },
      },
    });
    await experiments.appendLog(exp.id, 'engine', result.events);
    return modelId;
  }

  return {
    prepareExperimentData: ({ experimentId }) =>
      domainFailures(async () => {
        const { exp, base } = await load(experimentId);
        const ctx = Context.current();
        const beat = setInterval(() => ctx.heartbeat({ step: 'preparing' }), 2000);
        try {
          const out = (await pool.run({ type: 'prepare', ...base }, { signal: ctx.cancellationSignal }).catch(classifyThreadError)) as { kind: string; rows: number; log: string[]; plan: ModelSpec[] };
          const config = exp.config as AutoMLConfig;
          await experiments.appendLog(experimentId, 'engine', out.log);
          await experiments.appendLog(experimentId, 'service', [
            `data prepared: ${out.rows} rows, problem kind ${out.kind}; planned ${out.plan.length} models: ${out.plan.map((p) => p.name).join(', ')}`,
          ]);
          await experiments.mergeProgress(experimentId, { models_done: 0, models_planned: out.plan.length, current: null, budget_secs: config.max_runtime_secs, elapsed_secs: 0 });
          return {
            kind: out.kind,
            rows: out.rows,
            plan: out.plan,
            maxRuntimeSecs: config.max_runtime_secs,
            maxModels: config.max_models,
            perModelSecs: config.max_runtime_secs_per_model,
            excludeEnsembles: config.exclude_algos.includes('StackedEnsemble'),
          };
        } finally {
          clearInterval(beat);
        }
      }),

    trainModel: ({ experimentId, spec, sequence, deadlineMs: scheduledDeadline, budgetDeadlineMs, perModelMs }) =>
      domainFailures(async () => {
        const deadlineMs = budgetDeadlineMs !== undefined && perModelMs !== undefined ? Math.min(budgetDeadlineMs, Date.now() + perModelMs) : scheduledDeadline;
        const existing = await experiments.findModel(experimentId, spec.name);
        if (existing) return { status: 'trained', modelId: existing.id, message: 'already recorded' };
        const { exp, base } = await load(experimentId);
        const ctx = Context.current();
        let last = { fraction: 0, message: 'starting' };
        const beat = setInterval(() => ctx.heartbeat(last), 2000);
        await experiments.mergeProgress(experimentId, { current: spec.name, current_algo: spec.algo });
        await experiments.appendLog(experimentId, 'service', [`training ${spec.name} (${spec.algo}), model ${sequence}, on task queue ${ctx.info.taskQueue}`]);
        let result: Trained;
        try {
          result = (await pool.run({ type: 'train', ...base, spec, deadlineMs }, { signal: ctx.cancellationSignal, onProgress: (fraction, message) => (last = { fraction, message }) })) as Trained;
        } catch (err) {
          if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
          if (err instanceof ThreadError && err.errorName === 'ModelBudgetExceeded') {
            await experiments.appendLog(experimentId, 'service', [`${spec.name} stopped: time budget exhausted`], 'warn');
            return { status: 'skipped', message: err.message };
          }
          if (err instanceof ThreadError) {
            await experiments.appendLog(experimentId, 'service', [`${spec.name} failed: ${err.message}`], 'warn');
            return { status: 'failed', message: err.message };
          }
          throw err;
        } finally {
          clearInterval(beat);
        }
        return { status: 'trained', modelId: await record(exp, spec.name, spec.algo, sequence, result) };
      }),

    trainEnsembles: ({ experimentId, deadlineMs }) =>
      domainFailures(async () => {
        const { exp, base } = await load(experimentId);
        const trained = (await experiments.trainedModels(experimentId)).filter((m) => m.algo !== 'StackedEnsemble');
        if (trained.length < 2) return { trained: 0 };
        const bases: EnsembleBase[] = [];
        for (const m of trained) {
          const cv = m.explain.cv_predictions_artifact_id as string | undefined;
          if (!cv) continue;
          const [modelJson, holdout] = await Promise.all([models.readArtifact(m.artifactId), models.readArtifact(cv)]);
          bases.push({
            spec: { name: m.name, algo: m.algo as ModelSpec['algo'], params: {}, origin: 'default' },
            model: JSON.parse(modelJson.toString('utf8')),
            metrics: m.metrics as CandidateResult['metrics'],
            holdout: decodeHoldout(holdout),
            predictTimePerRowMs: m.predictTimePerRowMs,
          });
        }
        const ctx = Context.current();
        let last = { fraction: 0, message: 'stacking' };
        const beat = setInterval(() => ctx.heartbeat(last), 2000);
        await experiments.mergeProgress(experimentId, { current: 'StackedEnsemble', current_algo: 'StackedEnsemble' });
        let results: Trained[];
        try {
          results = (await pool
            .run({ type: 'ensemble', ...base, bases, deadlineMs }, { signal: ctx.cancellationSignal, onProgress: (fraction, message) => (last = { fraction, message }) })
            .catch(classifyThreadError)) as Trained[];
        } finally {
          clearInterval(beat);
        }
        let sequence = trained.reduce((mx, m) => Math.max(mx, m.sequence), 0);
        for (const r of results) {
          if (await experiments.findModel(experimentId, r.spec.name)) continue;
          await experiments.appendLog(experimentId, 'service', [`training ${r.spec.name} over ${bases.length} base models`]);
          await record(exp, r.spec.name, 'StackedEnsemble', ++sequence, r);
        }
        return { trained: results.length };
      }),

    finishExperiment: ({ experimentId, outcome }) =>
      domainFailures(async () => {
        const { best, count, sortMetric } = await experiments.chooseBestModel(experimentId);
        if (!best && outcome === 'succeeded') {
          throw ApplicationFailure.nonRetryable('No model could be trained within the time and model budget', 'DataError');
        }
        await experiments.appendLog(experimentId, 'service', [best ? `leader: ${best.name} (${sortMetric} ${best.metrics[metricKey(sortMetric)]}) of ${count} models` : `no models (${outcome})`]);
        return { best_model_id: best?.id ?? null, model_count: count };
      }),

    logExperiment: ({ experimentId, lines, level }) => domainFailures(() => experiments.appendLog(experimentId, 'service', lines, level ?? 'info')),
  };
}
