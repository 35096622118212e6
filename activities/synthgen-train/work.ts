import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { Artifact, DatasetVersion } from '../../entities';
import type { ArtifactStore, StoredObject } from '../../platform/artifact-store';
import type { Config } from '../../platform/config';
import { scratchDir } from '../../platform/scratch';
import type { DatasetVersions } from '../../services/dataset-versions';
import { NotFoundError } from '../../services/errors';

/**
 * What both synthgen job bodies share (training here, generation in ../synthgen-generate/, which judges its output
 * against the split the training made): the version's seeded train/holdout split, the synthgen job's log, its scratch
 * folder and its artifact rows.
 */

/** The seed of every model's train/holdout split: a version splits the same way for training and for its checks. */
export const SPLIT_SEED = 17;
/** Rows held out of training for the privacy check: a tenth of the version, at most this many, none under 50 rows. */
export const MAX_HOLDOUT_ROWS = 1000;
export const MIN_ROWS_FOR_HOLDOUT = 50;
/** Lines a synthgen job's log keeps. */
const MAX_LOG_LINES = 50;

/** What the synthgen job bodies read and write with. */
export interface SynthgenWorkDeps {
  ds: DataSource;
  store: ArtifactStore;
  datasetVersions: DatasetVersions;
  config: Config;
}

/** The holdout and training row counts of a version of `rows` rows. */
export function splitSizes(rows: number, maxTrainRows: number): { holdout: number; training: number } {
  const holdout = rows >= MIN_ROWS_FOR_HOLDOUT ? Math.min(MAX_HOLDOUT_ROWS, Math.floor(rows / 10)) : 0;
  return { holdout, training: Math.min(rows - holdout, maxTrainRows) };
}

export async function versionOf(ds: DataSource, id: string): Promise<DatasetVersion> {
  const v = await ds.getRepository(DatasetVersion).findOneBy({ id });
  if (!v) throw new NotFoundError('Dataset version not found');
  return v;
}

/** Appends a line to a synthgen job's log (bounded). */
export async function appendLog(ds: DataSource, jobId: string, line: string): Promise<void> {
  await ds.query(`UPDATE synthgen_jobs SET log = log || $2::jsonb WHERE id = $1 AND jsonb_array_length(log) < $3`, [jobId, JSON.stringify([line]), MAX_LOG_LINES]);
}

/** The row of a file already in the store, in the caller's transaction. */
export async function insertArtifact(
  em: EntityManager,
  stored: StoredObject,
  p: { projectId: string; kind: string; ownerType: string; ownerId: string; filename: string; contentType: string },
): Promise<Artifact> {
  const a = em.getRepository(Artifact).create({ ...p, sizeBytes: stored.sizeBytes, sha256: stored.sha256, storageKey: stored.storageKey });
  await em.getRepository(Artifact).insert(a);
  return a;
}

export async function readArtifact({ ds, store }: Pick<SynthgenWorkDeps, 'ds' | 'store'>, id: string): Promise<Uint8Array> {
  const a = await ds.getRepository(Artifact).findOneBy({ id });
  if (!a) throw new NotFoundError('Artifact not found');
  return new Uint8Array(await fs.promises.readFile(await store.localPath(a.storageKey)));
}

/** Runs `use` in a scratch folder of its own, removed afterwards whatever happens (a cancel leaves no half-written file). */
export async function withWorkDir<T>(config: Config, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = scratchDir(path.join(config.dataDir, 'tmp'), 'synthgen', randomUUID());
  await fs.promises.mkdir(dir, { recursive: true });
  try {
    return await use(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
