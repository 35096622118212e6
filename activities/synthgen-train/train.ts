import path from 'node:path';
import { readParquetFrame } from '../../engine/automl';
import { writeRankedRows } from '../../engine/data';
import { fitSynthesizer, serializeSynthesizer, SynthConfigError, type FitHooks, type SynthConfig } from '../../engine/synth';
import { Artifact, JsonMap, SynthgenModel } from '../../entities';
import { ConflictError, DataError, NotFoundError } from '../../services/errors';
import { unlinkCheckpoint } from '../../services/synthgen/checkpoints';
import { isNeural } from '../../services/synthgen/config';
import { modelColumns } from '../../services/synthgen/frames';
import { MODEL_NOT_FOUND } from '../../services/synthgen/service';
import type { EntityManager } from 'typeorm';
import type { JobProgress } from '../job-activity';
import { fitOnGpu } from './gpu-fit';
import { appendLog, insertArtifact, readArtifact, SPLIT_SEED, splitSizes, SynthgenWorkDeps, versionOf, withWorkDir } from './work';

/** What a `synthgen_train` job returns (kept on its jobs row). */
export type SynthTrainResult = {
  model_id: string;
  artifact_id: string;
  training_rows: number;
  holdout_rows: number;
  training_secs: number;
  resumed_from_epoch: number | null;
};

export interface TrainContext {
  attempt: number;
  /** The task queue this attempt runs on (ml-cpu or ml-gpu), for the job's log. */
  taskQueue: string;
  /** Set when the workflow sent this attempt to ml-cpu because no GPU worker took it. */
  gpuFallbackSecs?: number;
  signal: AbortSignal;
  progress: JobProgress;
  /** A heartbeat with the last progress: the fit's pulse inside a long epoch calls it. */
  keepAlive?: () => void;
}

/**
 * The `synthgen_train` job's work: fits the model on the version's training rows (a seeded split keeps a holdout out)
 * and stores it. A neural fit stores checkpoints as it goes, and a retried attempt resumes from the latest. The fit
 * reports each epoch, and pulses between batches of a long one: that is what heartbeats; a cancel aborts it between
 * batches. The model is stored only while the job still trains it: a canceled, failed or
 * deleted job keeps no file.
 */
export async function trainSynthesizer(deps: SynthgenWorkDeps, jobId: string, modelId: string, ctx: TrainContext): Promise<SynthTrainResult> {
  const { ds, store, datasetVersions, config } = deps;
  const model = await ds.getRepository(SynthgenModel).findOneBy({ id: modelId });
  if (!model) throw new NotFoundError(MODEL_NOT_FOUND);
  if (model.status !== 'pending' || model.trainJobId !== jobId) throw new ConflictError('The model is no longer trained by this job');
  if (model.artifactId) {
    // An earlier attempt stored the trained model but its result never reached Temporal (down at that moment): that
    // model is the result. Training again would store a second model artifact and orphan the first.
    await appendLog(ds, jobId, `attempt ${ctx.attempt}: the model was stored by an earlier attempt; keeping it`);
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
  await appendLog(ds, jobId, `attempt ${ctx.attempt} on ${ctx.taskQueue}${fallback}`);
  const version = await versionOf(ds, model.datasetVersionId);
  const { holdout, training } = splitSizes(version.rowCount, config.synthgen.maxTrainRows);
  const { progress } = ctx;

  return withWorkDir(config, async (dir) => {
    await progress(1, `reading ${training} training rows (${holdout} held out for the privacy check)`);
    const trainPath = path.join(dir, 'train.parquet');
    await writeRankedRows(await datasetVersions.parquetPath(version), trainPath, { seed: SPLIT_SEED, offset: holdout, limit: training });
    const frame = await readParquetFrame(trainPath);

    let resumeFrom: Uint8Array | null = null;
    if (isNeural(model.modelType) && model.checkpointArtifactId && model.checkpointEpoch !== null) {
      resumeFrom = await readArtifact(deps, model.checkpointArtifactId).catch(() => null);
      if (resumeFrom) await appendLog(ds, jobId, `attempt ${ctx.attempt}: resuming from the checkpoint of epoch ${model.checkpointEpoch}`);
    }
    await progress(5, resumeFrom ? `resuming after epoch ${model.checkpointEpoch}` : `fitting ${model.modelType} on ${frame.nrows} rows`);
    const started = Date.now();
    let fitted;
    const hooks: FitHooks = {
      signal: ctx.signal,
      resumeFrom,
      checkpointEverySecs: config.synthgen.checkpointSecs,
      threads: config.synthgen.threads,
      // The engine reports synchronously, from its thread's messages. A report refused by a cancel is harmless here:
      // the same cancel aborts the fit through `signal`; it must not become an unhandled rejection.
      onProgress: (fraction, message) => void progress(5 + 90 * fraction, message).catch(() => undefined),
      onPulse: ctx.keepAlive,
      onCheckpoint: (bytes, epoch) => saveCheckpoint(deps, model, jobId, bytes, epoch),
    };
    try {
      // On ml-gpu a use_gpu model trains on this worker's GPU; what the GPU engine cannot train (fitOnGpu logs why)
      // and everything on ml-cpu trains on the CPU, in the engine's worker thread.
      const onGpu = ctx.taskQueue === config.taskQueues.gpu && model.useGpu;
      fitted =
        (onGpu ? await fitOnGpu(model.modelType, frame, model.config, hooks, (line) => appendLog(ds, jobId, line)) : null) ??
        (await fitSynthesizer(model.modelType, frame, model.config as SynthConfig, hooks));
    } catch (err) {
      // The checkpoint stays: a retried attempt resumes from it (a worker shutting down aborts the fit too), and the
      // job's closing status write removes it when the job ends failed or canceled (job-kinds.ts, releaseOnClose).
      // The worker thread's errors arrive as plain Errors carrying the name.
      if (err instanceof SynthConfigError || (err instanceof Error && err.name === 'SynthConfigError')) throw new DataError(err.message);
      throw err;
    }
    const trainingSecs = (Date.now() - started) / 1000;
    await progress(96, 'storing the model');
    const stored = await store.put(model.projectId, `${model.name}.synth`, Buffer.from(serializeSynthesizer(fitted)));
    const columns = modelColumns(fitted.columns, frame, version.columns);
    let oldCheckpoint: string | null = null;
    let artifact: Artifact;
    try {
      artifact = await ds.transaction(async (em) => {
        await claimModel(em, model.id, jobId);
        const a = await insertArtifact(em, stored, {
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
      await store.remove(stored.storageKey);
      throw err;
    }
    if (oldCheckpoint) await store.remove(oldCheckpoint);
    const resumed = resumeFrom ? model.checkpointEpoch : null;
    await appendLog(ds, jobId, `trained on ${frame.nrows} rows in ${trainingSecs.toFixed(1)} s`);
    return { model_id: model.id, artifact_id: artifact.id, training_rows: frame.nrows, holdout_rows: holdout, training_secs: trainingSecs, resumed_from_epoch: resumed };
  });
}

/** Stores a checkpoint of the job's fit and drops the one before; refused once the job no longer trains the model. */
async function saveCheckpoint({ ds, store }: SynthgenWorkDeps, model: SynthgenModel, jobId: string, bytes: Uint8Array, epoch: number): Promise<void> {
  const stored = await store.put(model.projectId, `${model.name}-checkpoint.bin`, Buffer.from(bytes));
  let old: string | null;
  try {
    old = await ds.transaction(async (em) => {
      await claimModel(em, model.id, jobId);
      const previous = await unlinkCheckpoint(em, model.id);
      const a = await insertArtifact(em, stored, {
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
    await store.remove(stored.storageKey);
    throw err;
  }
  if (old) await store.remove(old);
}

/** Locks the model for this job's write; a model deleted, failed, trained or taken by another job refuses it. */
async function claimModel(em: EntityManager, modelId: string, jobId: string): Promise<void> {
  const rows: unknown[] = await em.query(`SELECT id FROM synthgen_models WHERE id = $1 AND train_job_id = $2 AND status = 'pending' FOR UPDATE`, [modelId, jobId]);
  if (!rows.length) throw new ConflictError('The model is no longer trained by this job');
}
