import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Frame } from '../../engine/automl';
import { csvToParquet, type Dtype, writeRankedRows } from '../../engine/data';
import { deserializeSynthesizer, sampleSynthesizerBatches, SynthConditionError, type SynthConditions } from '../../engine/synth';
import { DatasetVersion, JsonMap, SynthgenJob, SynthgenModel } from '../../entities';
import type { StoredObject } from '../../platform/artifact-store';
import { ConflictError, DataError, NotFoundError } from '../../services/errors';
import { engineConditions, ModelColumn } from '../../services/synthgen/frames';
import { JOB_NOT_FOUND, MODEL_NOT_FOUND } from '../../services/synthgen/service';
import type { JobProgress } from '../job-activity';
import { insertArtifact, MIN_ROWS_FOR_HOLDOUT, readArtifact, SPLIT_SEED, SynthgenWorkDeps, versionOf, withWorkDir } from '../synthgen-train/work';
import { computeChecksInThread } from './checks';
import { csvCells } from './csv-cells';

/** Rows of each side the quality report and the privacy check compare (seeded samples past it). */
export const QUALITY_SAMPLE_ROWS = 5000;
/** Rows a generation samples per batch: memory stays bounded whatever `num_rows` is. */
export const GENERATION_BATCH_ROWS = 10_000;

/** What a `synthgen_generate` job returns (kept on its jobs row). */
export type SynthGenerateResult = {
  synthgen_job_id: string;
  model_id: string;
  rows: number;
  artifact_id: string;
  parquet_artifact_id: string;
  overall_score: number | null;
};

/**
 * The `synthgen_generate` job's work: samples in batches into a streamed CSV (progress after each batch, so a cancel
 * stops it there), converts it to typed Parquet, scores it (in a thread the cancel stops), and stores both files with
 * the scores. Everything is written in a scratch folder removed at the end; the files enter the store, and their rows
 * the database, only while the generation still runs: a canceled, failed or deleted job keeps no file.
 */
export async function generateSynthetic(deps: SynthgenWorkDeps, jobId: string, progress: JobProgress, signal: AbortSignal): Promise<SynthGenerateResult> {
  const { ds, store, config } = deps;
  const job = await ds.getRepository(SynthgenJob).findOneBy({ id: jobId });
  if (!job) throw new NotFoundError(JOB_NOT_FOUND);
  const model = await ds.getRepository(SynthgenModel).findOneBy({ id: job.modelId });
  if (!model) throw new NotFoundError(MODEL_NOT_FOUND);
  if (model.status !== 'ready' || !model.artifactId) throw new ConflictError('The model is not ready');
  const columns = (model.columns ?? []) as unknown as ModelColumn[];
  const numRows = Number(job.config.num_rows);
  const seed = typeof job.config.seed === 'number' ? job.config.seed : undefined;
  const conditions = engineConditions(columns, (job.config.conditions ?? {}) as Record<string, unknown>);
  const synth = deserializeSynthesizer(await readArtifact(deps, model.artifactId));
  const names = columns.map((c) => c.name);
  const dtypes = columns.map((c) => c.dtype);
  const version = await versionOf(ds, model.datasetVersionId);
  const base = `${model.name}-synthetic-${jobId.slice(0, 8)}`;

  return withWorkDir(config, async (dir) => {
    const csvPath = path.join(dir, 'out.csv');
    const rows = await writeCsv(csvPath, names, dtypes, sampleSynthesizerBatches(synth, numRows, { seed, conditions, batchRows: GENERATION_BATCH_ROWS }), numRows, progress);
    await progress(78, 'writing the Parquet file');
    const parquetPath = path.join(dir, 'out.parquet');
    await csvToParquet(
      csvPath,
      parquetPath,
      columns.map((c) => ({ name: c.name, dtype: c.dtype as Dtype })),
    );

    await progress(85, 'scoring quality and privacy');
    const checks = await scoreOutput(deps, dir, version, model, parquetPath, conditions, signal);

    await progress(95, 'storing the output');
    const stored: StoredObject[] = [];
    try {
      for (const [file, name] of [
        [csvPath, `${base}.csv`],
        [parquetPath, `${base}.parquet`],
      ]) {
        stored.push(await store.describe(await store.moveIn(model.projectId, name, file)));
      }
      const [csv, parquet] = await ds.transaction(async (em) => {
        const claimed: unknown[] = await em.query(`SELECT id FROM synthgen_jobs WHERE id = $1 AND status = 'running' FOR UPDATE`, [jobId]);
        if (!claimed.length) throw new ConflictError('The generation is no longer running');
        const owner = { projectId: model.projectId, kind: 'synthgen_output', ownerType: 'synthgen_job', ownerId: jobId };
        const csv = await insertArtifact(em, stored[0], { ...owner, filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8' });
        const parquet = await insertArtifact(em, stored[1], { ...owner, filename: `${base}.parquet`, contentType: 'application/vnd.apache.parquet' });
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
      await Promise.all(stored.map((s) => store.remove(s.storageKey)));
      throw err;
    }
  });
}

/** Streams batches into a CSV (header first) with csv-stringify, one batch in memory at a time; returns the rows written. */
async function writeCsv(file: string, names: string[], dtypes: string[], batches: AsyncGenerator<Frame>, numRows: number, progress: JobProgress): Promise<number> {
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
async function scoreOutput(
  { datasetVersions }: SynthgenWorkDeps,
  dir: string,
  version: DatasetVersion,
  model: SynthgenModel,
  outputParquet: string,
  conditions: SynthConditions,
  signal: AbortSignal,
): Promise<{ quality: JsonMap; privacy: JsonMap }> {
  const source = await datasetVersions.parquetPath(version);
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
