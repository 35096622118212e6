import { Context } from '@temporalio/activity';
import type { Experiment } from '../../entities';
import type { AutoMLConfig, CandidateResult, ModelSpec } from '../../engine/automl';
import { metricKey } from '../../engine/automl';
import type { RequestedKind } from '../../engine/automl';
import { DataError } from '../../services/errors';
import { ignoredColumns } from '../../services/experiments';
import type { ActivityDeps } from '../deps';
import { domainFailures } from '../failures';
import { decodeHoldout, encodeHoldout } from './holdout';
import { ModelBudgetError, ThreadError, TrainingDataError, TrainingPool } from './training-pool';
import type { EnsembleBase, TrainedModel } from './training-thread';

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

export interface TrainModelInput {
  experimentId: string;
  spec: ModelSpec;
  /** The model's place in the plan (1-based). */
  sequence: number;
  /**
   * When training must stop (ms since the epoch): the budget's end, or earlier with a per-model budget. Absent for
   * the plan's first model, which the experiment's budget never stops (only its own per-model budget does).
   */
  deadlineMs?: number;
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

/** The engine's DataError (raised in the training thread) is the user's data: a domain DataError, not retried. */
function asDomainError(err: unknown): never {
  if (err instanceof TrainingDataError) throw new DataError(err.message);
  throw err;
}

/**
 * The frame of an AutoML activity: domain errors translated (`domainFailures`), and a heartbeat for each progress the
 * training thread reports, which it repeats from inside the engine's loops while a model trains (each tree, mini-batch,
 * solver sweep; engine/automl/pulse.ts; about every two seconds). So a model that trains keeps its attempt alive and
 * one that hangs lets it time out; a cancel reaches the body through `signal`, which stops the thread. Not
 * `jobActivity`: these activities act on an experiment and carry no job id (the workflow writes the job's status).
 */
function trainingActivity<T>(first: string, body: (beat: (fraction: number, message: string) => void, signal: AbortSignal, ctx: Context) => Promise<T>): Promise<T> {
  return domainFailures(() => {
    const ctx = Context.current();
    const beat = (fraction: number, message: string) => ctx.heartbeat({ fraction, message });
    beat(0, first);
    return body(beat, ctx.cancellationSignal, ctx);
  });
}

/**
 * The `automl_train` job's activities: data preparation, one model per call (in a worker
 * thread, so heartbeats flow and a cancel stops it at once), the stacked ensembles, and choosing
 * the best model. Persistence goes through the experiment and model services.
 */
export function createAutomlTrainActivities({ services, trainingPool: pool, config }: ActivityDeps): AutomlTrainActivities {
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
      ignoredColumns: ignoredColumns(exp.config),
    };
    return { exp, base };
  }

  /** Records a trained model with its files, then its engine events in the experiment's log. */
  async function record(exp: Experiment, name: string, algo: string, sequence: number, result: TrainedModel): Promise<string> {
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
            // Binary models: computed on the same held-out scores as the ROC curve (engine/automl/curves.ts).
            pr_curve: result.curves?.pr_curve ?? null,
            threshold_table: result.curves?.threshold_table ?? null,
            ...('baseModelImportance' in result ? { base_model_importance: result.baseModelImportance } : {}),
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
      trainingActivity('preparing', async (beat, signal) => {
        const { exp, base } = await load(experimentId);
        const out = await pool.run({ type: 'prepare', ...base }, { signal, onProgress: beat }).catch(asDomainError);
        const config = exp.config as AutoMLConfig;
        await experiments.appendLog(experimentId, 'engine', out.log);
        await experiments.appendLog(experimentId, 'service', [
          `data prepared: ${out.rows} rows, problem kind ${out.kind}; planned ${out.plan.length} models: ${out.plan.map((p) => p.name).join(', ')}`,
        ]);
        // Leakage is a warning, not a failure: training goes on, and the experiment page offers to retrain without it.
        await experiments.setWarnings(
          experimentId,
          out.leakage.map((f) => ({ kind: 'leakage', column: f.column, measure: f.measure, score: f.score, message: f.message })),
        );
        if (out.leakage.length)
          await experiments.appendLog(
            experimentId,
            'service',
            out.leakage.map((f) => f.message),
            'warn',
          );
        // Planned: the base models this run trains at most (max_models caps the plan); the ensemble is counted apart.
        await experiments.mergeProgress(experimentId, {
          models_done: 0,
          models_planned: Math.min(config.max_models, out.plan.length),
          current: null,
          budget_secs: config.max_runtime_secs,
          elapsed_secs: 0,
        });
        return {
          kind: out.kind,
          rows: out.rows,
          plan: out.plan,
          maxRuntimeSecs: config.max_runtime_secs,
          maxModels: config.max_models,
          perModelSecs: config.max_runtime_secs_per_model,
          excludeEnsembles: config.exclude_algos.includes('StackedEnsemble'),
        };
      }),

    trainModel: ({ experimentId, spec, sequence, deadlineMs: scheduledDeadline, budgetDeadlineMs, perModelMs }) =>
      trainingActivity('starting', async (beat, signal, ctx): Promise<TrainOutcome> => {
        const deadlineMs = perModelMs !== undefined ? Math.min(budgetDeadlineMs ?? Infinity, Date.now() + perModelMs) : scheduledDeadline;
        const existing = await experiments.findModel(experimentId, spec.name);
        if (existing) return { status: 'trained', modelId: existing.id, message: 'already recorded' };
        const { exp, base } = await load(experimentId);
        await experiments.mergeProgress(experimentId, { current: spec.name, current_algo: spec.algo });
        await experiments.appendLog(experimentId, 'service', [`training ${spec.name} (${spec.algo}), model ${sequence}, on task queue ${ctx.info.taskQueue}`]);
        let result: TrainedModel;
        try {
          // A DeepLearning model on the GPU queue trains on this gpu worker's GPU (gpu-candidate.ts).
          const gpu = spec.algo === 'DeepLearning' && ctx.info.taskQueue === config.taskQueues.gpu;
          result = await pool.run({ type: 'train', ...base, spec, deadlineMs, gpu }, { signal, onProgress: beat });
        } catch (err) {
          if (signal.aborted) throw signal.reason ?? err;
          if (err instanceof ModelBudgetError) {
            await experiments.appendLog(experimentId, 'service', [`${spec.name} stopped: time budget exhausted`], 'warn');
            return { status: 'skipped', message: err.message };
          }
          // Any other engine error fails this model only; the experiment goes on with the next.
          if (err instanceof ThreadError) {
            await experiments.appendLog(experimentId, 'service', [`${spec.name} failed: ${err.message}`], 'warn');
            return { status: 'failed', message: err.message };
          }
          throw err;
        }
        const modelId = await record(exp, spec.name, spec.algo, sequence, result);
        await experiments.syncJobProgress(experimentId);
        return { status: 'trained', modelId };
      }),

    trainEnsembles: ({ experimentId, deadlineMs }) =>
      trainingActivity('stacking', async (beat, signal) => {
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
          beat(0, 'reading the base models');
        }
        await experiments.mergeProgress(experimentId, { current: 'StackedEnsemble', current_algo: 'StackedEnsemble' });
        const results = await pool.run({ type: 'ensemble', ...base, bases, deadlineMs }, { signal, onProgress: beat }).catch(asDomainError);
        let sequence = trained.reduce((mx, m) => Math.max(mx, m.sequence), 0);
        for (const r of results) {
          if (await experiments.findModel(experimentId, r.spec.name)) continue;
          await experiments.appendLog(experimentId, 'service', [`training ${r.spec.name} over ${bases.length} base models`]);
          await record(exp, r.spec.name, 'StackedEnsemble', ++sequence, r);
        }
        await experiments.syncJobProgress(experimentId);
        return { trained: results.length };
      }),

    finishExperiment: ({ experimentId, outcome }) =>
      domainFailures(async () => {
        const { best, count, sortMetric } = await experiments.chooseBestModel(experimentId);
        if (!best && outcome === 'succeeded') throw new DataError('No model could be trained within the time and model budget');
        await experiments.appendLog(experimentId, 'service', [best ? `leader: ${best.name} (${sortMetric} ${best.metrics[metricKey(sortMetric)]}) of ${count} models` : `no models (${outcome})`]);
        return { best_model_id: best?.id ?? null, model_count: count };
      }),

    logExperiment: ({ experimentId, lines, level }) => domainFailures(() => experiments.appendLog(experimentId, 'service', lines, level ?? 'info')),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createAutomlTrainActivities;
