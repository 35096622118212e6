import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { DataSource, EntityManager } from 'typeorm';
import { readParquetFrame, type Frame } from '../../engine/automl';
import { csvToParquet, type Dtype, writeRankedRows } from '../../engine/data';
import {
  deserializeSynthesizer,
  fitSynthesizer,
  sampleSynthesizerBatches,
  serializeSynthesizer,
  SynthConditionError,
  SynthConfigError,
  type SynthConditions,
  type SynthConfig,
} from '../../engine/synth';
import { Artifact, DatasetVersion, JsonMap, SynthgenJob, SynthgenModel } from '../../entities';
import type { ArtifactStore, StoredObject } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import { scratchDir } from '../../platform/scratch';
import type { DatasetVersions } from '../dataset-versions';
import { ConflictError, DataError, NotFoundError } from '../errors';
import { unlinkCheckpoint } from './checkpoints';
import { isNeural } from './config';
import { computeChecksInThread } from './checks';
import { csvCells, engineConditions, ModelColumn, modelColumns } from './frames';
import { JOB_NOT_FOUND, MODEL_NOT_FOUND } from './service';

/** The seed of every model's train/holdout split: a version splits the same way for training and for its checks. */
export const SPLIT_SEED = 17;
/** Rows held out of training for the privacy check: a tenth of the version, at most this many, none under 50 rows. */
export const MAX_HOLDOUT_ROWS = 1000;
const MIN_ROWS_FOR_HOLDOUT = 50;
/** Rows of each side the quality report and the privacy check compare (seeded samples past it). */
export const QUALITY_SAMPLE_ROWS = 5000;
/** Rows a generation samples per batch: memory stays bounded whatever `num_rows` is. */
export const GENERATION_BATCH_ROWS = 10_000;
/** Lines a synthgen job's log keeps. */
const MAX_LOG_LINES = 50;
/** How often the latest progress is reported again while a step runs (it heartbeats, which also delivers a cancel). */
const PROGRESS_EVERY_MS = 1000;

export type Progress = (percent: number, message: string) => Promise<void>;

/** What a `synthgen_train` job returns (kept on its jobs row). */
export type SynthTrainResult = {
  model_id: string;
  artifact_id: string;
  training_rows: number;
  holdout_rows: number;
  training_secs: number;
  resumed_from_epoch: number | null;
};

/** What a `synthgen_generate` job returns (kept on its jobs row). */
export type SynthGenerateResult = {
  synthgen_job_id: string;
  model_id: string;
  rows: number;
  artifact_id: string;
  parquet_artifact_id: string;
  overall_score: number | null;
};

export interface TrainContext {
  attempt: number;
  /** The task queue this attempt runs on (ml-cpu or ml-gpu), for the job's log. */
  taskQueue: string;
  /** Set when the workflow sent this attempt to ml-cpu because no GPU worker took it. */
  gpuFallbackSecs?: number;
  signal: AbortSignal;
  progress: Progress;
}

/** The holdout and training row counts of a version of `rows` rows. */
export function splitSizes(rows: number, maxTrainRows: number): { holdout: number; training: number } {
  const holdout = rows >= MIN_ROWS_FOR_HOLDOUT ? Math.min(MAX_HOLDOUT_ROWS, Math.floor(rows / 10)) : 0;
  return { holdout, training: Math.min(rows - holdout, maxTrainRows) };
}

/**
 * The work of synthgen jobs. Training fits the model on the version's training rows (a seeded split keeps a holdout
 * out) and stores it; a neural fit stores checkpoints, and a retried attempt resumes from the latest. Generation
 * samples in batches into a streamed CSV, converts it to typed Parquet, scores it, and stores both files with the
 * scores. Each final write happens only while the job still owns its row: a canceled, failed or deleted job keeps no
 * file.
 */
export class SynthgenRuns {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly datasetVersions: DatasetVersions,
    private readonly config: Config,
  ) {}

  async train(jobId: string, modelId: string, ctx: TrainContext): Promise<SynthTrainResult> {
    const model = await this.ds.getRepository(SynthgenModel).findOneBy({ id: modelId });
    if (!model) throw new NotFoundError(MODEL_NOT_FOUND);
    if (model.status !== 'pending' || model.trainJobId !== jobId) throw new ConflictError('The model is no longer trained by this job');
    if (model.artifactId) {
      // An earlier attempt stored the trained model but its result never reached Temporal (down at that moment): that
      // model is the result. Training again would store a second model artifact and orphan the first.
      await this.appendLog(jobId, `attempt ${ctx.attempt}: the model was stored by an earlier attempt; keeping it`);
      return {
        model_id: model.id,
        artifact_id: model.artifactId,
        training_rows: model.trainingRows ?? 0,
        holdout_rows: model.holdoutRows ?? 0,
        training_secs: model.trainingSecs ?? 0,
        resumed_from_epoch: null,
      };
    }
    const fallback = ctx.gpuFallbackSecs ? ` (no GPU worker took it within ${ctx.gpuFallbackSecs}s)` : '';
    await this.appendLog(jobId, `attempt ${ctx.attempt} on ${ctx.taskQueue}${fallback}`);
    const version = await this.version(model.datasetVersionId);
    const { holdout, training } = splitSizes(version.rowCount, this.config.synthgen.maxTrainRows);

    const steady = steadyProgress(ctx.progress);
    return this.withWorkDir(async (dir) => {
      const progress = steady.progress;
      await progress(1, `reading ${training} training rows (${holdout} held out for the privacy check)`);
      const trainPath = path.join(dir, 'train.parquet');
      await writeRankedRows(await this.datasetVersions.parquetPath(version), trainPath, { seed: SPLIT_SEED, offset: holdout, limit: training });
      const frame = await readParquetFrame(trainPath);

      let resumeFrom: Uint8Array | null = null;
      if (isNeural(model.modelType) && model.checkpointArtifactId && model.checkpointEpoch !== null) {
        resumeFrom = await this.readArtifact(model.checkpointArtifactId).catch(() => null);
        if (resumeFrom) await this.appendLog(jobId, `attempt ${ctx.attempt}: resuming from the checkpoint of epoch ${model.checkpointEpoch}`);
      }
      await progress(5, resumeFrom ? `resuming after epoch ${model.checkpointEpoch}` : `fitting ${model.modelType} on ${frame.nrows} rows`);
      const started = Date.now();
      let fitted;
      try {
        fitted = await fitSynthesizer(model.modelType, frame, model.config as SynthConfig, {
          signal: ctx.signal,
          resumeFrom,
          checkpointEverySecs: this.config.synthgen.checkpointSecs,
          threads: this.config.synthgen.threads,
          // The engine reports synchronously from its thread's messages; the steady timer writes the latest.
          onProgress: (fraction, message) => steady.set(5 + 90 * fraction, message),
          onCheckpoint: (bytes, epoch) => this.saveCheckpoint(model, jobId, bytes, epoch),
        });
      } catch (err) {
        // The checkpoint stays: a retried attempt resumes from it (a worker shutting down aborts the fit too), and the
        // job's closing status write removes it when the job ends failed or canceled (job-kinds.ts, releaseOnClose).
        // The worker thread's errors arrive as plain Errors carrying the name.
        if (err instanceof SynthConfigError || (err instanceof Error && err.name === 'SynthConfigError')) throw new DataError(err.message);
        throw err;
      }
      const trainingSecs = (Date.now() - started) / 1000;
      await progress(96, 'storing the model');
      const stored = await this.store.put(model.projectId, `${model.name}.synth`, Buffer.from(serializeSynthesizer(fitted)));
      const columns = modelColumns(fitted.columns, frame, version.columns);
      let oldCheckpoint: string | null = null;
      let artifact: Artifact;
      try {
        artifact = await this.ds.transaction(async (em) => {
          await this.claimModel(em, model.id, jobId);
          const a = await this.insertArtifact(em, stored, {
            projectId: model.projectId,
            kind: 'synthgen_model',
            ownerType: 'synthgen_model',
            ownerId: model.id,
            filename: `${model.name}.synth`,
            contentType: 'application/octet-stream',
          });
          oldCheckpoint = await unlinkCheckpoint(em, model.id);
          await em.getRepository(SynthgenModel).update({ id: model.id }, { artifactId: a.id, trainingRows: frame.nrows, holdoutRows: holdout, columns: columns as unknown as JsonMap[], trainingSecs });
          return a;
        });
      } catch (err) {
        await this.store.remove(stored.storageKey);
        throw err;
      }
      if (oldCheckpoint) await this.store.remove(oldCheckpoint);
      const resumed = resumeFrom ? model.checkpointEpoch : null;
      await this.appendLog(jobId, `trained on ${frame.nrows} rows in ${trainingSecs.toFixed(1)} s`);
      return { model_id: model.id, artifact_id: artifact.id, training_rows: frame.nrows, holdout_rows: holdout, training_secs: trainingSecs, resumed_from_epoch: resumed };
    }).finally(() => steady.stop());
  }

  async generate(jobId: string, report: Progress, signal?: AbortSignal): Promise<SynthGenerateResult> {
    const steady = steadyProgress(report);
    try {
      return await this.generateSteadily(jobId, steady.progress, signal);
    } finally {
      steady.stop();
    }
  }

  private async generateSteadily(jobId: string, progress: Progress, signal?: AbortSignal): Promise<SynthGenerateResult> {
    const job = await this.ds.getRepository(SynthgenJob).findOneBy({ id: jobId });
    if (!job) throw new NotFoundError(JOB_NOT_FOUND);
    const model = await this.ds.getRepository(SynthgenModel).findOneBy({ id: job.modelId });
    if (!model) throw new NotFoundError(MODEL_NOT_FOUND);
    if (model.status !== 'ready' || !model.artifactId) throw new ConflictError('The model is not ready');
    const columns = (model.columns ?? []) as unknown as ModelColumn[];
    const numRows = Number(job.config.num_rows);
    const seed = typeof job.config.seed === 'number' ? job.config.seed : undefined;
    const conditions = engineConditions(columns, (job.config.conditions ?? {}) as Record<string, unknown>);
    const synth = deserializeSynthesizer(await this.readArtifact(model.artifactId));
    const names = columns.map((c) => c.name);
    const dtypes = columns.map((c) => c.dtype);
    const version = await this.version(model.datasetVersionId);
    const base = `${model.name}-synthetic-${jobId.slice(0, 8)}`;

    return this.withWorkDir(async (dir) => {
      const csvPath = path.join(dir, 'out.csv');
      const rows = await this.writeCsv(csvPath, names, dtypes, sampleSynthesizerBatches(synth, numRows, { seed, conditions, batchRows: GENERATION_BATCH_ROWS }), numRows, progress);
      await progress(78, 'writing the Parquet file');
      const parquetPath = path.join(dir, 'out.parquet');
      await csvToParquet(
        csvPath,
        parquetPath,
        columns.map((c) => ({ name: c.name, dtype: c.dtype as Dtype })),
      );

      await progress(85, 'scoring quality and privacy');
      const checks = await this.checks(dir, version, model, parquetPath, conditions, signal);

      await progress(95, 'storing the output');
      const stored: StoredObject[] = [];
      try {
        for (const [file, name] of [
          [csvPath, `${base}.csv`],
          [parquetPath, `${base}.parquet`],
        ]) {
          stored.push(await this.store.describe(await this.store.moveIn(model.projectId, name, file)));
        }
        const [csv, parquet] = await this.ds.transaction(async (em) => {
          const claimed: unknown[] = await em.query(`SELECT id FROM synthgen_jobs WHERE id = $1 AND status = 'running' FOR UPDATE`, [jobId]);
          if (!claimed.length) throw new ConflictError('The generation is no longer running');
          const owner = { projectId: model.projectId, kind: 'synthgen_output', ownerType: 'synthgen_job', ownerId: jobId };
          const csv = await this.insertArtifact(em, stored[0], { ...owner, filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8' });
          const parquet = await this.insertArtifact(em, stored[1], { ...owner, filename: `${base}.parquet`, contentType: 'application/vnd.apache.parquet' });
          await em.getRepository(SynthgenJob).update({ id: jobId }, { outputArtifactId: csv.id, parquetArtifactId: parquet.id, rowsGenerated: rows, quality: checks.quality, privacy: checks.privacy });
          return [csv, parquet];
        });
        return {
          synthgen_job_id: jobId,
          model_id: model.id,
          rows,
          artifact_id: csv.id,
          parquet_artifact_id: parquet.id,
          overall_score: typeof checks.quality.overall_score === 'number' ? checks.quality.overall_score : null,
        };
      } catch (err) {
        await Promise.all(stored.map((s) => this.store.remove(s.storageKey)));
        throw err;
      }
    });
  }

  /** Streams batches into a CSV (header first) with csv-stringify, one batch in memory at a time; returns the rows written. */
  private async writeCsv(file: string, names: string[], dtypes: string[], batches: AsyncGenerator<Frame>, numRows: number, progress: Progress): Promise<number> {
    const out = fs.createWriteStream(file);
    const csv = stringify({ header: true, columns: names });
    csv.pipe(out);
    let rows = 0;
    try {
      for await (const batch of batches) {
        const cells = csvCells({ ...batch, columns: names.map((n) => batch.columns[batch.names.indexOf(n)]) }, dtypes);
        for (let i = 0; i < batch.nrows; i++) if (!csv.write(cells(i))) await once(csv, 'drain');
        rows += batch.nrows;
        await progress(5 + Math.floor((70 * rows) / Math.max(1, numRows)), `generated ${rows} of ${numRows} rows`);
      }
    } catch (err) {
      csv.destroy();
      out.destroy();
      // By class, or by name: each model family of the engine may raise its own.
      if (err instanceof SynthConditionError || (err instanceof Error && err.name === 'SynthConditionError')) throw new DataError(err.message);
      throw err;
    }
    csv.end();
    await finished(out);
    return rows;
  }

  /**
   * The quality report (SDMetrics' definitions) of a sample of the output against a sample of the training rows
   * (those meeting the conditions, when enough do), with per-column distributions, and the distance-to-closest-record
   * privacy check against the model's holdout (none when the version was too small to hold rows out).
   */
  private async checks(
    dir: string,
    version: DatasetVersion,
    model: SynthgenModel,
    outputParquet: string,
    conditions: SynthConditions,
    signal?: AbortSignal,
  ): Promise<{ quality: JsonMap; privacy: JsonMap }> {
    const source = await this.datasetVersions.parquetPath(version);
    const holdoutRows = model.holdoutRows ?? 0;
    const trainingRows = model.trainingRows ?? 0;
    const slice = async (name: string, from: string, seed: number, offset: number, limit: number) => {
      const file = path.join(dir, name);
      await writeRankedRows(from, file, { seed, offset, limit });
      return file;
    };
    return computeChecksInThread(
      {
        realPath: await slice('real.parquet', source, SPLIT_SEED, holdoutRows, Math.min(trainingRows, QUALITY_SAMPLE_ROWS)),
        syntheticPath: await slice('synthetic.parquet', outputParquet, 1, 0, QUALITY_SAMPLE_ROWS),
        holdoutPath: holdoutRows >= 5 ? await slice('holdout.parquet', source, SPLIT_SEED, 0, holdoutRows) : null,
        noHoldout: `The version has fewer than ${MIN_ROWS_FOR_HOLDOUT} rows: none were held out, so there is no holdout to compare against`,
        conditions,
      },
      signal,
    );
  }

  /** Stores a checkpoint of the job's fit and drops the one before; refused once the job no longer trains the model. */
  private async saveCheckpoint(model: SynthgenModel, jobId: string, bytes: Uint8Array, epoch: number): Promise<void> {
    const stored = await this.store.put(model.projectId, `${model.name}-checkpoint.bin`, Buffer.from(bytes));
    let old: string | null;
    try {
      old = await this.ds.transaction(async (em) => {
        await this.claimModel(em, model.id, jobId);
        const previous = await unlinkCheckpoint(em, model.id);
        const a = await this.insertArtifact(em, stored, {
          projectId: model.projectId,
          kind: 'synthgen_checkpoint',
          ownerType: 'synthgen_model',
          ownerId: model.id,
          filename: `${model.name}-checkpoint-epoch-${epoch}.bin`,
          contentType: 'application/octet-stream',
        });
        await em.getRepository(SynthgenModel).update({ id: model.id }, { checkpointArtifactId: a.id, checkpointEpoch: epoch });
        return previous;
      });
    } catch (err) {
      await this.store.remove(stored.storageKey);
      throw err;
    }
    if (old) await this.store.remove(old);
  }

  /** Locks the model for this job's write; a model deleted, failed, trained or taken by another job refuses it. */
  private async claimModel(em: EntityManager, modelId: string, jobId: string): Promise<void> {
    const rows: unknown[] = await em.query(`SELECT id FROM synthgen_models WHERE id = $1 AND train_job_id = $2 AND status = 'pending' FOR UPDATE`, [modelId, jobId]);
    if (!rows.length) throw new ConflictError('The model is no longer trained by this job');
  }

  private async insertArtifact(
    em: EntityManager,
    stored: StoredObject,
    p: { projectId: string; kind: string; ownerType: string; ownerId: string; filename: string; contentType: string },
  ): Promise<Artifact> {
    const a = em.getRepository(Artifact).create({ ...p, sizeBytes: stored.sizeBytes, sha256: stored.sha256, storageKey: stored.storageKey });
    await em.getRepository(Artifact).insert(a);
    return a;
  }

  private async readArtifact(id: string): Promise<Uint8Array> {
    const a = await this.ds.getRepository(Artifact).findOneBy({ id });
    if (!a) throw new NotFoundError('Artifact not found');
    return new Uint8Array(await fs.promises.readFile(await this.store.localPath(a.storageKey)));
  }

  private async version(id: string): Promise<DatasetVersion> {
    const v = await this.ds.getRepository(DatasetVersion).findOneBy({ id });
    if (!v) throw new NotFoundError('Dataset version not found');
    return v;
  }

  /** Appends a line to a synthgen job's log (bounded). */
  private async appendLog(jobId: string, line: string): Promise<void> {
    await this.ds.query(`UPDATE synthgen_jobs SET log = log || $2::jsonb WHERE id = $1 AND jsonb_array_length(log) < $3`, [jobId, JSON.stringify([line]), MAX_LOG_LINES]);
  }

  private async withWorkDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
    const dir = scratchDir(path.join(this.config.dataDir, 'tmp'), 'synthgen', randomUUID());
    await fs.promises.mkdir(dir, { recursive: true });
    try {
      return await use(dir);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Progress that keeps flowing while a long step (a DuckDB copy, a fit in the engine's thread) reports nothing: the
 * latest percentage and message are reported again every second, so the activity heartbeats well inside its timeout
 * and a cancel reaches it. `set` records progress without awaiting (for synchronous engine callbacks).
 */
function steadyProgress(report: Progress): { progress: Progress; set(percent: number, message: string): void; stop(): void } {
  let last = { percent: 0, message: 'starting' };
  const timer = setInterval(() => {
    report(last.percent, last.message).catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  return {
    progress: async (percent, message) => {
      last = { percent, message };
      await report(percent, message);
    },
    set: (percent, message) => {
      last = { percent, message };
    },
    stop: () => clearInterval(timer),
  };
}
