import type { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { Artifact, Job, SynthgenJob, SynthgenJobStatus, SynthgenModel } from '../../entities';
import type { ArtifactStore, ByteRange } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { Access, MEMBER_PROJECTS_SQL } from '../access';
import { ConflictError, DataError, NotFoundError, RejectedError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { isNeural, modelTypeOf, resolveModelConfig } from './config';
import { engineConditions, ModelColumn } from './frames';

export const MODEL_NOT_FOUND = 'Model not found';
export const JOB_NOT_FOUND = 'Job not found';
export const MODEL_NOT_READY = 'Model is not ready';
export const OUTPUT_NOT_READY = 'Job output not available yet';

/** Rows a version needs before a model is fitted on it. */
export const MIN_TRAINING_ROWS = 10;
/** Conditions one generation may set (one per column at most anyway). */
export const MAX_CONDITIONS = 100;

export interface CreateModel {
  project_id: string;
  dataset_version_id: string;
  name: string;
  model_type?: unknown;
  config?: Record<string, unknown>;
  use_gpu?: boolean;
}

export interface GenerateRequest {
  num_rows?: number;
  seed?: number;
  conditions?: Record<string, unknown>;
}

/** A model with the names lists and details show beside it. */
export interface ModelView {
  model: SynthgenModel;
  datasetName: string;
  datasetVersion: number | null;
  projectName: string;
}

/** A synthgen job with its model's names and its `jobs` row's progress. */
export interface JobView {
  job: SynthgenJob;
  modelName: string;
  modelType: string;
  projectName: string;
  progress: number;
  progressMessage: string | null;
  attempt: number;
}

/**
 * SynthGen models and jobs: a model is trained by a `synthgen_train` job on one dataset version of its project,
 * then generates rows in `synthgen_generate` jobs. Each synthgen job shares its id with its `jobs` row, whose status
 * it follows in the spec's spelling (`services/job-kinds.ts`). The jobs' work is in activities/synthgen-train/ and
 * activities/synthgen-generate/.
 */
export class SynthgenService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly store: ArtifactStore,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Creates a `pending` model and queues its training (editor or above). */
  async create(userId: string, p: CreateModel): Promise<{ model: SynthgenModel; job: Job }> {
    await this.access.project(userId, p.project_id, 'editor');
    const modelType = modelTypeOf(p.model_type);
    const config = resolveModelConfig(modelType, p.config);
    const { version, dataset } = await this.access.version(userId, p.dataset_version_id);
    if (dataset.projectId !== p.project_id) throw new NotFoundError('Dataset version not found');
    if (version.rowCount < MIN_TRAINING_ROWS) throw new DataError(`A model needs at least ${MIN_TRAINING_ROWS} rows to learn from; the version has ${version.rowCount}`);
    const useGpu = (p.use_gpu ?? false) && isNeural(modelType);
    const { model, job } = await this.ds.transaction(async (em) => {
      const model = em.getRepository(SynthgenModel).create({
        projectId: p.project_id,
        datasetId: dataset.id,
        datasetVersionId: version.id,
        name: p.name,
        modelType,
        status: 'pending',
        config: config as Record<string, unknown>,
        useGpu,
        error: null,
        artifactId: null,
        checkpointArtifactId: null,
        checkpointEpoch: null,
        trainJobId: null,
        trainingRows: null,
        holdoutRows: null,
        columns: null,
        trainingSecs: null,
        createdBy: userId,
        startedAt: null,
        finishedAt: null,
      });
      await em.getRepository(SynthgenModel).insert(model);
      const job = await this.jobs.create(em, {
        kind: 'synthgen_train',
        projectId: p.project_id,
        entityId: model.id,
        createdBy: userId,
        input: { modelId: model.id, useGpu, neural: isNeural(modelType), gpuScheduleToStartSecs: this.config.temporal.gpuScheduleToStartSecs },
      });
      await em.getRepository(SynthgenJob).insert(this.jobRow(job, model, 'train', config as Record<string, unknown>, userId));
      await em.getRepository(SynthgenModel).update({ id: model.id }, { trainJobId: job.id });
      model.trainJobId = job.id;
      return { model, job };
    });
    await this.jobs.start(job);
    return { model, job };
  }

  async list(userId: string, q: PageQuery & { project_id?: string }): Promise<Page<ModelView>> {
    if (q.project_id) await this.access.project(userId, q.project_id);
    const qb = this.ds.getRepository(SynthgenModel).createQueryBuilder('m').where(`m.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('m.project_id = :projectId', { projectId: q.project_id });
    const [items, total] = await qb.orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items: await this.modelViews(items), total, limit: q.limit, offset: q.offset };
  }

  /** A model with its jobs (oldest first). */
  async get(userId: string, modelId: string): Promise<{ view: ModelView; jobs: SynthgenJob[] }> {
    const model = await this.access.synthgenModel(userId, modelId);
    const [view] = await this.modelViews([model]);
    const jobs = await this.ds.getRepository(SynthgenJob).find({ where: { modelId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { view, jobs };
  }

  /**
   * Queues a generation (editor or above): `num_rows` within 1..SYNTHGEN_MAX_ROWS (default 1000, 422 otherwise), then
   * 400 `Model is not ready` unless the model is `ready`, then conditions checked against the model's columns (422
   * naming the condition).
   */
  async generate(userId: string, modelId: string, p: GenerateRequest): Promise<Job> {
    const model = await this.access.synthgenModel(userId, modelId, 'editor');
    const numRows = p.num_rows ?? 1000;
    const max = this.config.synthgen.maxRows;
    if (!Number.isInteger(numRows) || numRows < 1 || numRows > max) throw new ValidationError(`num_rows must be between 1 and ${max}`);
    const conditions = p.conditions ?? {};
    if (Object.keys(conditions).length > MAX_CONDITIONS) throw ValidationError.field(['body', 'conditions'], `At most ${MAX_CONDITIONS} conditions`);
    if (model.status !== 'ready' || !model.artifactId) throw new RejectedError(MODEL_NOT_READY);
    engineConditions((model.columns ?? []) as unknown as ModelColumn[], conditions);
    const config = { num_rows: numRows, seed: p.seed ?? null, conditions };
    const job = await this.ds.transaction(async (em) => {
      // The model's row lock orders this against a delete of the model.
      const locked = await em.getRepository(SynthgenModel).findOne({ where: { id: modelId }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new NotFoundError(MODEL_NOT_FOUND);
      const job = await this.jobs.create(em, { kind: 'synthgen_generate', projectId: model.projectId, entityId: model.id, createdBy: userId, input: { modelId: model.id } });
      await em.getRepository(SynthgenJob).insert(this.jobRow(job, model, 'generate', config, userId));
      return job;
    });
    await this.jobs.start(job);
    return job;
  }

  /**
   * Deletes a model with its jobs (their `jobs` rows too), artifacts and files (editor or above). Open jobs are
   * canceled first: their workflows are asked to stop, and whatever they would still store is refused (the rows it
   * needs are gone) and its files removed.
   */
  async delete(userId: string, modelId: string): Promise<void> {
    await this.access.synthgenModel(userId, modelId, 'editor');
    const { keys, open } = await this.ds.transaction(async (em) => {
      // A job's status write locks the job's row, then its model's (writeJobStatus); locking in the same order keeps
      // a delete from deadlocking with a training that is starting or ending at that moment.
      await em.query('SELECT id FROM jobs WHERE id IN (SELECT id FROM synthgen_jobs WHERE model_id = $1) ORDER BY id FOR UPDATE', [modelId]);
      const model = await em.getRepository(SynthgenModel).findOne({ where: { id: modelId }, lock: { mode: 'pessimistic_write' } });
      if (!model) throw new NotFoundError(MODEL_NOT_FOUND);
      const jobIds = (await em.getRepository(SynthgenJob).find({ select: { id: true }, where: { modelId } })).map((j) => j.id);
      const open = jobIds.length ? await em.getRepository(Job).find({ where: { id: In(jobIds), status: In(['queued', 'running']) } }) : [];
      const artifacts: { id: string; storage_key: string }[] = await em.query(
        `SELECT id, storage_key FROM artifacts WHERE (owner_type = 'synthgen_model' AND owner_id = $1) OR (owner_type = 'synthgen_job' AND owner_id = ANY($2))`,
        [modelId, jobIds],
      );
      if (jobIds.length) await em.getRepository(Job).delete({ id: In(jobIds) });
      await em.getRepository(SynthgenModel).delete({ id: modelId });
      if (artifacts.length) await em.getRepository(Artifact).delete({ id: In(artifacts.map((a) => a.id)) });
      return { keys: artifacts.map((a) => a.storage_key), open };
    });
    await Promise.all(keys.map((key) => this.store.remove(key)));
    for (const job of open) {
      await this.jobs.cancel(job).catch((err: unknown) => this.log.warn({ err, jobId: job.id }, 'could not cancel the job of a deleted synthgen model'));
    }
  }

  async listJobs(userId: string, q: PageQuery & { project_id?: string; model_id?: string; status?: SynthgenJobStatus }): Promise<Page<JobView>> {
    if (q.project_id) await this.access.project(userId, q.project_id);
    if (q.model_id) await this.access.synthgenModel(userId, q.model_id);
    const qb = this.ds.getRepository(SynthgenJob).createQueryBuilder('j').where(`j.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('j.project_id = :projectId', { projectId: q.project_id });
    if (q.model_id) qb.andWhere('j.model_id = :modelId', { modelId: q.model_id });
    if (q.status) qb.andWhere('j.status = :status', { status: q.status });
    const [items, total] = await qb.orderBy('j.created_at', 'DESC').addOrderBy('j.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items: await this.jobViews(items), total, limit: q.limit, offset: q.offset };
  }

  async getJob(userId: string, jobId: string): Promise<JobView> {
    const [view] = await this.jobViews([await this.access.synthgenJob(userId, jobId)]);
    return view;
  }

  /** A completed generation's output (CSV, or its Parquet form); 409 `Job output not available yet` before. */
  async output(userId: string, jobId: string, format: 'csv' | 'parquet'): Promise<{ artifact: Artifact; open: (range?: ByteRange) => Readable }> {
    const job = await this.access.synthgenJob(userId, jobId);
    const id = format === 'parquet' ? job.parquetArtifactId : job.outputArtifactId;
    const artifact = job.status === 'completed' && id ? await this.ds.getRepository(Artifact).findOneBy({ id }) : null;
    if (!artifact || !(await this.store.exists(artifact.storageKey))) throw new ConflictError(OUTPUT_NOT_READY);
    return { artifact, open: (range) => this.store.read(artifact.storageKey, range) };
  }

  private jobRow(job: Job, model: SynthgenModel, jobType: 'train' | 'generate', config: Record<string, unknown>, userId: string): SynthgenJob {
    return this.ds.getRepository(SynthgenJob).create({
      id: job.id,
      projectId: model.projectId,
      modelId: model.id,
      jobType,
      status: 'pending',
      config,
      error: null,
      outputArtifactId: null,
      parquetArtifactId: null,
      rowsGenerated: null,
      quality: null,
      privacy: null,
      log: [],
      createdBy: userId,
      startedAt: null,
      finishedAt: null,
    });
  }

  private async modelViews(models: SynthgenModel[]): Promise<ModelView[]> {
    if (!models.length) return [];
    const versions: { id: string; version: number; dataset_name: string }[] = await this.ds.query(
      'SELECT v.id, v.version, d.name AS dataset_name FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE v.id = ANY($1)',
      [[...new Set(models.map((m) => m.datasetVersionId))]],
    );
    const projects: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM projects WHERE id = ANY($1)', [[...new Set(models.map((m) => m.projectId))]]);
    return models.map((model) => {
      const v = versions.find((x) => x.id === model.datasetVersionId);
      return { model, datasetName: v?.dataset_name ?? '', datasetVersion: v ? Number(v.version) : null, projectName: projects.find((p) => p.id === model.projectId)?.name ?? '' };
    });
  }

  private async jobViews(jobs: SynthgenJob[]): Promise<JobView[]> {
    if (!jobs.length) return [];
    const models = await this.ds.getRepository(SynthgenModel).find({ select: { id: true, name: true, modelType: true }, where: { id: In([...new Set(jobs.map((j) => j.modelId))]) } });
    const projects: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM projects WHERE id = ANY($1)', [[...new Set(jobs.map((j) => j.projectId))]]);
    const rows = await this.ds.getRepository(Job).find({ select: { id: true, progress: true, message: true, attempt: true, status: true }, where: { id: In(jobs.map((j) => j.id)) } });
    return jobs.map((job) => {
      const m = models.find((x) => x.id === job.modelId);
      const row = rows.find((r) => r.id === job.id);
      return {
        job,
        modelName: m?.name ?? '',
        modelType: m?.modelType ?? '',
        projectName: projects.find((p) => p.id === job.projectId)?.name ?? '',
        progress: row ? (row.status === 'succeeded' ? 100 : row.progress) : 0,
        progressMessage: row?.message ?? null,
        attempt: row?.attempt ?? 0,
      };
    });
  }
}
