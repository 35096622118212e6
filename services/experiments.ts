import type { DataSource } from 'typeorm';
import { Dataset, DatasetVersion, Experiment, ExperimentLog, ExperimentWarning, Model } from '../entities';
import { AutoMLConfig, compareByMetric, CONFIG_DEFAULTS, Kind, metricKey, normalizeProblemType, parseAutoMLConfig } from '../engine/automl';
import { columnCardinality } from '../engine/data';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import { featureImportance } from './model-importance';
import { Access } from './access';
import type { DatasetVersions } from './dataset-versions';
import { ValidationError, NotFoundError } from './errors';
import { refuseDeployedModels } from './deployed-models';
import { trainingProgress, type TrainingProgress } from './experiment-progress';
import type { JobService } from './jobs';
import { likePattern, ListQuery, Page, sqlDirection } from './lists';
import { limitsOfUser } from './plans';

/** Most classes a classification target may have. */
export const MAX_CLASSES = 100;

/** The stored config: the AutoML engine's keys plus the columns left out of training. */
export type ExperimentConfig = AutoMLConfig & { ignored_columns: string[] };

/** Columns an experiment leaves out of training (none for experiments made before `ignored_columns` existed). */
export function ignoredColumns(config: unknown): string[] {
  const v = (config as { ignored_columns?: unknown } | null)?.ignored_columns;
  return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : [];
}

export const EXPERIMENT_SORT_FIELDS = ['created_at', 'name', 'status'] as const;

export interface ExperimentFilter extends ListQuery<(typeof EXPERIMENT_SORT_FIELDS)[number]> {
  project_id?: string;
  dataset_id?: string;
  status?: Experiment['status'];
}

export interface NewExperiment {
  project_id: string;
  dataset_version_id: string;
  name: string;
  target_column: string;
  problem_type: string;
  config?: unknown;
  use_gpu: boolean;
}

/** An experiment as lists show it: with its project, dataset, model count and best model. */
export interface ExperimentSummary {
  id: string;
  name: string;
  project_id: string;
  dataset_version_id: string;
  dataset_id: string;
  target_column: string;
  problem_type: string;
  problem_kind: string;
  status: string;
  config: ExperimentConfig;
  use_gpu: boolean;
  project_name: string;
  /** The version's number within its dataset (v1, v2...). */
  dataset_version: number;
  /** Metrics of the best model (null before one is chosen). */
  best_model_metrics: Record<string, unknown> | null;
  /** Models trained apart from the stacked ensembles, and the ensembles. */
  base_model_count: number;
  ensemble_count: number;
  warnings: ExperimentWarning[];
  dataset_name: string;
  model_count: number;
  best_model_id: string | null;
  best_model_algo: string | null;
  job_id: string | null;
  error: string | null;
  progress: Record<string, unknown>;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const SUMMARY_SQL = `SELECT e.*, p.name AS project_name, d.name AS dataset_name, d.id AS dataset_id, v.version AS dataset_version,
    (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id) AS model_count,
    (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id AND m.algo = 'StackedEnsemble') AS ensemble_count,
    (SELECT count(*)::int FROM models m WHERE m.experiment_id = e.id AND m.algo <> 'StackedEnsemble') AS base_model_count,
    (SELECT m.algo FROM models m WHERE m.id = e.best_model_id) AS best_model_algo,
    (SELECT m.metrics FROM models m WHERE m.id = e.best_model_id) AS best_model_metrics
  FROM experiments e JOIN projects p ON p.id = e.project_id
  JOIN dataset_versions v ON v.id = e.dataset_version_id JOIN datasets d ON d.id = v.dataset_id
  WHERE e.project_id IN (SELECT pm.project_id FROM project_access pm WHERE pm.user_id = $1)`;

/**
 * Checks `config.ignored_columns` against the version's columns: a list of distinct column names of the data, never
 * the target, leaving at least one feature. Answers the list to store ([] when absent).
 */
export function checkIgnoredColumns(value: unknown, columns: string[], target: string): string[] {
  if (value === undefined || value === null) return [];
  const loc = ['body', 'config', 'ignored_columns'];
  if (!Array.isArray(value) || value.some((c) => typeof c !== 'string')) throw ValidationError.field(loc, 'ignored_columns must be a list of column names');
  const names = value as string[];
  if (names.length > columns.length) throw ValidationError.field(loc, `ignored_columns lists ${names.length} names; the dataset version has ${columns.length} columns`);
  const known = new Set(columns);
  const unknown = names.filter((c) => !known.has(c));
  if (unknown.length) throw ValidationError.field(loc, `ignored_columns names columns the dataset version does not have: ${unknown.map((c) => JSON.stringify(c)).join(', ')}`);
  const repeated = names.filter((c, i) => names.indexOf(c) !== i);
  if (repeated.length) throw ValidationError.field(loc, `ignored_columns lists ${JSON.stringify(repeated[0])} more than once`);
  if (names.includes(target)) throw ValidationError.field(loc, `ignored_columns cannot include the target column ${target}`);
  if (columns.every((c) => c === target || names.includes(c))) throw ValidationError.field(loc, 'ignored_columns leaves no feature column to train on');
  return names;
}

/** Progress of a listed experiment (or one read with its model counts). */
export function experimentProgress(r: { status: string; config: unknown; progress: Record<string, unknown>; base_model_count: number; ensemble_count: number }): TrainingProgress {
  const config = r.config as AutoMLConfig;
  const planned = r.progress.models_planned;
  return trainingProgress({
    status: r.status,
    baseModels: Number(r.base_model_count),
    ensembles: Number(r.ensemble_count),
    maxModels: config.max_models,
    plannedInPlan: typeof planned === 'number' ? planned : undefined,
    ensemblesExcluded: (config.exclude_algos ?? []).includes('StackedEnsemble'),
  });
}

/** AutoML experiments: creation (an `automl_train` job), leaderboard, explanations, logs, deletion. */
export class ExperimentService {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly access: Access,
    private readonly versions: DatasetVersions,
    private readonly jobs: JobService,
    private readonly config: Config,
  ) {}

  /**
   * Validates the request against its data, writes the experiment, its job and its first log
   * line in one transaction, then starts the job: the answer does not wait for training.
   */
  async create(userId: string, body: NewExperiment): Promise<{ experiment: Experiment; jobId: string }> {
    await this.access.project(userId, body.project_id, 'editor');
    const v = await this.validate(body, userId);
    const { exp, job } = await this.ds.transaction(async (em) => {
      const exp = em.getRepository(Experiment).create({
        projectId: body.project_id,
        datasetVersionId: v.versionId,
        name: body.name,
        targetColumn: body.target_column,
        problemType: v.problemType,
        problemKind: v.kind,
        status: 'queued',
        config: v.config,
        useGpu: body.use_gpu,
        jobId: null,
        bestModelId: null,
        error: null,
        progress: {},
        createdBy: userId,
        startedAt: null,
        finishedAt: null,
      });
      await em.getRepository(Experiment).insert(exp);
      const job = await this.jobs.create(em, {
        kind: 'automl_train',
        projectId: body.project_id,
        entityId: exp.id,
        createdBy: userId,
        input: {
          experimentId: exp.id,
          useGpu: body.use_gpu,
          gpuScheduleToStartSecs: this.config.temporal.gpuScheduleToStartSecs,
          training: { taskQueue: this.config.training.taskQueue, parallelism: this.config.training.parallelism },
        },
      });
      await em.getRepository(Experiment).update({ id: exp.id }, { jobId: job.id });
      await em.getRepository(ExperimentLog).insert({
        experimentId: exp.id,
        source: 'service',
        level: 'info',
        message: `experiment queued: ${v.kind} on ${body.target_column}, sort metric ${v.config.sort_metric}, budget ${v.config.max_runtime_secs}s / ${v.config.max_models} models${
          v.config.ignored_columns.length ? `, ignoring ${v.config.ignored_columns.join(', ')}` : ''
        }`,
      });
      return { exp, job };
    });
    await this.jobs.start(job);
    return { experiment: exp, jobId: job.id };
  }

  /**
   * Checks an experiment request against its data: the version is in the project, the target
   * exists, the problem type fits the target (binary or multiclass detected from its distinct
   * values), and the config is valid for that kind.
   */
  private async validate(body: NewExperiment, userId: string): Promise<{ versionId: string; problemType: 'classification' | 'regression'; kind: Kind; config: ExperimentConfig }> {
    const v = await this.ds.getRepository(DatasetVersion).findOneBy({ id: body.dataset_version_id });
    const dataset = v ? await this.ds.getRepository(Dataset).findOneBy({ id: v.datasetId }) : null;
    if (!v || !dataset || dataset.projectId !== body.project_id) throw new NotFoundError('Dataset version not found');
    const problemType = normalizeProblemType(body.problem_type);
    if (!problemType) throw new ValidationError('Invalid problem_type');
    const column = v.columns.find((c) => c.name === body.target_column);
    if (!column) throw new ValidationError('target_column not found in dataset');
    const parquet = await this.versions.parquetPath(v);
    const { distinct, present } = await columnCardinality(parquet, column.name);
    if (present === 0) throw new ValidationError(`target_column ${column.name} has no values`);
    let kind: Kind;
    if (problemType === 'regression') {
      if (!['int64', 'float64'].includes(column.dtype)) throw new ValidationError(`regression needs a numeric target; ${column.name} is ${column.dtype}`);
      kind = 'regression';
    } else {
      if (distinct < 2) throw new ValidationError(`classification needs at least two classes; ${column.name} has ${distinct}`);
      if (distinct > MAX_CLASSES) throw new ValidationError(`classification supports at most ${MAX_CLASSES} classes; ${column.name} has ${distinct} distinct values`);
      if (column.dtype === 'float64') throw new ValidationError(`classification needs a categorical or integer target; ${column.name} is float64`);
      kind = distinct === 2 ? 'binary' : 'multiclass';
      if (body.problem_type === 'binary' && kind !== 'binary') throw new ValidationError(`problem_type binary needs two classes; ${column.name} has ${distinct}`);
    }
    // The caller's plan caps max_models (base models; the stacked ensembles come on top): a larger request is
    // refused (422 naming the cap) rather than quietly trained with fewer models; an omitted one takes the default
    // within the cap.
    const limits = await limitsOfUser(this.ds.manager, userId);
    const cap = limits.max_models;
    const raw = body.config ?? {};
    // ignored_columns is the service's key (checked against the data below), not the engine's.
    const engineRaw = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'ignored_columns')) : raw;
    const input =
      typeof engineRaw === 'object' && !Array.isArray(engineRaw) && (engineRaw as { max_models?: unknown }).max_models == null && cap < CONFIG_DEFAULTS.max_models
        ? { ...engineRaw, max_models: cap }
        : engineRaw;
    const parsed = parseAutoMLConfig(input, kind, { maxModelsCap: cap, maxRuntimeSecsCap: limits.max_runtime_secs });
    if (!parsed.config) {
      throw new ValidationError(
        parsed.issues.map((i) => ({
          loc: ['body', ...i.loc],
          msg: ['config.max_models', 'config.max_runtime_secs'].includes(i.loc.join('.')) ? `${i.msg} (the account quota, ${i.loc[1]} of the plan)` : i.msg,
          type: 'value_error',
        })),
      );
    }
    const ignored = checkIgnoredColumns(
      (raw as { ignored_columns?: unknown }).ignored_columns,
      v.columns.map((c) => c.name),
      column.name,
    );
    return { versionId: v.id, problemType, kind, config: { ...parsed.config, ignored_columns: ignored } };
  }

  async list(userId: string, q: ExperimentFilter): Promise<Page<ExperimentSummary>> {
    const params: unknown[] = [userId];
    let where = '';
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where += ` AND ${sql.replace('?', `$${params.length}`)}`;
    };
    if (q.project_id) add('e.project_id = ?', q.project_id);
    if (q.dataset_id) add('d.id = ?', q.dataset_id);
    if (q.status) add('e.status = ?', q.status);
    if (q.search) {
      params.push(likePattern(q.search));
      where += ` AND (e.name ILIKE $${params.length} OR e.target_column ILIKE $${params.length})`;
    }
    const order = { created_at: 'created_at', name: 'lower(name)', status: 'status' }[q.sort_field];
    const dir = sqlDirection(q.sort_direction);
    const items: ExperimentSummary[] = await this.ds.query(`SELECT * FROM (${SUMMARY_SQL}${where}) x ORDER BY ${order} ${dir}, id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`, params);
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM (${SUMMARY_SQL}${where}) x`, params);
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The experiment the user can read, as lists show it. */
  async summary(userId: string, experimentId: string): Promise<ExperimentSummary> {
    const rows: ExperimentSummary[] = await this.ds.query(`${SUMMARY_SQL} AND e.id = $2`, [userId, experimentId]);
    if (!rows[0]) throw new NotFoundError('Experiment not found');
    return rows[0];
  }

  /** The experiment with its leaderboard (best first by the experiment's sort metric). */
  async detail(userId: string, experimentId: string): Promise<{ experiment: Experiment; summary: ExperimentSummary; leaderboard: Model[] }> {
    const experiment = await this.access.experiment(userId, experimentId);
    return { experiment, summary: await this.summary(userId, experiment.id), leaderboard: await this.leaderboard(experiment) };
  }

  /** Models of an experiment, best first by its sort metric; ties by training order. */
  async leaderboard(exp: Experiment): Promise<Model[]> {
    const models = await this.ds.getRepository(Model).findBy({ experimentId: exp.id });
    const cmp = compareByMetric((exp.config as AutoMLConfig).sort_metric);
    return models.sort((a, b) => cmp(a.metrics, b.metrics) || a.sequence - b.sequence);
  }

  /** Status, with elapsed time against the budget, and models trained of those planned with the percent they make. */
  async status(userId: string, experimentId: string) {
    const exp = await this.access.experiment(userId, experimentId);
    const started = exp.startedAt?.getTime();
    const end = exp.finishedAt?.getTime() ?? Date.now();
    const counted = await this.progressOf(exp);
    const progress = { ...exp.progress, ...counted, elapsed_secs: started ? Math.round((end - started) / 1000) : 0, budget_secs: (exp.config as AutoMLConfig).max_runtime_secs };
    return { experiment: exp, progress };
  }

  /** The experiment's progress counted from its recorded models (base models and ensembles apart). */
  async progressOf(exp: Experiment): Promise<TrainingProgress> {
    const [{ base, ensembles }] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE algo <> 'StackedEnsemble')::int AS base, count(*) FILTER (WHERE algo = 'StackedEnsemble')::int AS ensembles FROM models WHERE experiment_id = $1`,
      [exp.id],
    );
    return experimentProgress({ status: exp.status, config: exp.config, progress: exp.progress, base_model_count: base, ensemble_count: ensembles });
  }

  /**
   * Writes the job's percent from the models recorded so far (the jobs page and any client of the job follow the
   * models, not only the workflow's own estimate). Only while the job runs: its end writes 100 or leaves it.
   */
  async syncJobProgress(experimentId: string): Promise<void> {
    const exp = await this.ds.getRepository(Experiment).findOneBy({ id: experimentId });
    if (!exp?.jobId) return;
    const p = await this.progressOf(exp);
    await this.ds.query(`UPDATE jobs SET progress = GREATEST(progress, $2), message = $3, updated_at = now() WHERE id = $1 AND status = 'running'`, [exp.jobId, p.percent, p.summary]);
  }

  /** Stores what data preparation found (leakage), replacing an earlier attempt's findings. */
  async setWarnings(experimentId: string, warnings: ExperimentWarning[]): Promise<void> {
    await this.ds.getRepository(Experiment).update({ id: experimentId }, { warnings });
  }

  /** Log lines in order; `service` lines always, the engine's detailed events on request. */
  async logs(userId: string, experimentId: string, includeEngine: boolean): Promise<{ experiment: Experiment; lines: string[] }> {
    const experiment = await this.access.experiment(userId, experimentId);
    const qb = this.ds.getRepository(ExperimentLog).createQueryBuilder('l').where('l.experiment_id = :id', { id: experiment.id });
    if (!includeEngine) qb.andWhere("l.source = 'service'");
    const rows = await qb.orderBy('l.id', 'ASC').getMany();
    return { experiment, lines: rows.map((r) => `${r.createdAt.toISOString()} ${r.level.toUpperCase()} [${r.source}] ${r.message}`) };
  }

  /** Appends lines to an experiment's log. */
  async appendLog(experimentId: string, source: 'service' | 'engine', lines: string[], level: ExperimentLog['level'] = 'info'): Promise<void> {
    if (!lines.length) return;
    try {
      await this.ds
        .getRepository(ExperimentLog)
        .createQueryBuilder()
        .insert()
        .values(lines.map((message) => ({ experimentId, source, level, message })))
        .execute();
    } catch (err) {
      // A foreign-key violation: the experiment was deleted meanwhile; the job has nothing left to log to.
      if ((err as { code?: string }).code === '23503') throw new NotFoundError(`Experiment ${experimentId} no longer exists`);
      throw err;
    }
  }

  /**
   * What training reads of an experiment: the row, its data's Parquet file and the most cells to
   * read of it (`MAX_TRAINING_CELLS`). A deleted experiment or dataset version is a NotFoundError
   * (the job cannot go on).
   */
  async trainingInput(experimentId: string): Promise<{ experiment: Experiment; parquetPath: string; maxCells: number }> {
    const experiment = await this.ds.getRepository(Experiment).findOneBy({ id: experimentId });
    if (!experiment) throw new NotFoundError(`Experiment ${experimentId} no longer exists`);
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId });
    if (!version) throw new NotFoundError('The dataset version of this experiment no longer exists');
    return { experiment, parquetPath: await this.versions.parquetPath(version), maxCells: this.config.limits.maxTrainingCells };
  }

  /** Models trained so far, in training order. */
  trainedModels(experimentId: string): Promise<Model[]> {
    return this.ds.getRepository(Model).find({ where: { experimentId }, order: { sequence: 'ASC' } });
  }

  /** Whether a model of this name is already recorded (a retried activity). */
  async findModel(experimentId: string, name: string): Promise<Model | null> {
    return this.ds.getRepository(Model).findOneBy({ experimentId, name });
  }

  /** Merges keys into the experiment's live progress (models done, current model, ...). */
  async mergeProgress(experimentId: string, patch: Record<string, unknown>): Promise<void> {
    await this.ds.query(`UPDATE experiments SET progress = progress || $2::jsonb, updated_at = now() WHERE id = $1`, [experimentId, JSON.stringify(patch)]);
  }

  /** The training jobs (workflow runs) of an experiment. */
  async runs(userId: string, experimentId: string) {
    const experiment = await this.access.experiment(userId, experimentId);
    return { experiment, jobs: await this.jobs.forEntity('automl_train', experiment.id) };
  }

  /** What the experiment's notebook is written from: the experiment, its data's columns and its best model. */
  async notebookInputs(userId: string, experimentId: string) {
    const experiment = await this.access.experiment(userId, experimentId);
    const version = await this.ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId });
    const best = experiment.bestModelId ? await this.ds.getRepository(Model).findOneBy({ id: experiment.bestModelId }) : null;
    // The notebook's example row holds the model's inputs only: ignored columns are no input.
    const ignored = new Set(ignoredColumns(experiment.config));
    return { experiment, columns: (version?.columns ?? []).filter((c) => !ignored.has(c.name)), best };
  }

  /** Pareto front (metric against training time) and the variable-importance matrix across models. */
  async explain(userId: string, experimentId: string) {
    const exp = await this.access.experiment(userId, experimentId);
    const models = await this.leaderboard(exp);
    const sortMetric = (exp.config as AutoMLConfig).sort_metric;
    const key = metricKey(sortMetric);
    const cmp = compareByMetric(sortMetric);
    // A model is on the front when no faster-or-equal model has a better metric.
    const front = models.filter((m) => !models.some((o) => o !== m && o.trainingTimeMs <= m.trainingTimeMs && cmp(o.metrics, m.metrics) < 0));
    // Features only: an ensemble's metalearner weighs base models (GBM_1, …), which are not columns of the data.
    const importance = (m: Model) => featureImportance(m);
    const features = [...new Set(models.flatMap((m) => importance(m).map((v) => v.variable)))];
    const matrix = models.map((m) => {
      const vi = new Map(importance(m).map((v) => [v.variable, v.scaled_importance]));
      return features.map((f) => vi.get(f) ?? 0);
    });
    return {
      sort_metric: sortMetric,
      pareto_front: front.sort((a, b) => a.trainingTimeMs - b.trainingTimeMs).map((m) => ({ id: m.id, name: m.name, algo: m.algo, metric: m.metrics[key], training_time: m.trainingTimeMs / 1000 })),
      varimp_heatmap: { models: models.map((m) => m.name), features, matrix },
    };
  }

  /** Makes one of the experiment's models its best, by hand (editor or above). */
  async setBestModel(userId: string, experimentId: string, modelId: string): Promise<void> {
    const exp = await this.access.experiment(userId, experimentId, 'editor');
    const model = await this.ds.getRepository(Model).findOneBy({ id: modelId, experimentId: exp.id });
    if (!model) throw ValidationError.field(['body', 'model_id'], 'model_id must belong to the experiment');
    await this.markBest(exp.id, model.id);
  }

  /**
   * Ranks the experiment's models by its sort metric and marks the leader best. Returns null
   * when no model was trained.
   */
  async chooseBestModel(experimentId: string): Promise<{ best: Model | null; count: number; sortMetric: string }> {
    const exp = await this.ds.getRepository(Experiment).findOneBy({ id: experimentId });
    if (!exp) throw new NotFoundError(`Experiment ${experimentId} no longer exists`);
    const ranked = await this.leaderboard(exp);
    await this.markBest(experimentId, ranked[0]?.id ?? null);
    return { best: ranked[0] ?? null, count: ranked.length, sortMetric: (exp.config as AutoMLConfig).sort_metric };
  }

  private async markBest(experimentId: string, modelId: string | null): Promise<void> {
    await this.ds.transaction(async (em) => {
      await em.getRepository(Model).update({ experimentId }, { isBest: false });
      if (modelId) await em.getRepository(Model).update({ id: modelId }, { isBest: true });
      await em.getRepository(Experiment).update({ id: experimentId }, { bestModelId: modelId });
    });
  }

  /**
   * Deletes an experiment with its models and their files (editor or above); a running one is
   * canceled first. The experiment row is locked while its models are collected, so a model
   * being recorded at the same moment is either deleted with it or never written.
   */
  async delete(userId: string, experimentId: string): Promise<void> {
    const exp = await this.access.experiment(userId, experimentId, 'editor');
    if (exp.jobId) {
      const job = await this.access.job(userId, exp.jobId).catch(() => null);
      if (job && ['queued', 'running'].includes(job.status)) await this.jobs.cancel(job).catch(() => undefined);
    }
    const keys = await this.ds.transaction(async (em) => {
      const locked = await em.query('SELECT id FROM experiments WHERE id = $1 FOR UPDATE', [exp.id]);
      if (!locked[0]) return [] as string[];
      await refuseDeployedModels(em, 'SELECT id FROM models WHERE experiment_id = $1', [exp.id], 'A model of this experiment has an active deployment: deactivate it first');
      const files: { storage_key: string }[] = await em.query(`SELECT a.storage_key FROM artifacts a WHERE a.owner_type = 'model' AND a.owner_id IN (SELECT id FROM models WHERE experiment_id = $1)`, [
        exp.id,
      ]);
      await em.query(`DELETE FROM models WHERE experiment_id = $1`, [exp.id]);
      await em.query(`DELETE FROM artifacts WHERE owner_type = 'model' AND storage_key = ANY($1)`, [files.map((f) => f.storage_key)]);
      await em.getRepository(Experiment).delete({ id: exp.id });
      return files.map((f) => f.storage_key);
    });
    await Promise.all(keys.map((key) => this.store.remove(key)));
  }
}
