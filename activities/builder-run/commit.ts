import fs from 'node:fs';
import path from 'node:path';
import { executeOperations, type Operation } from '../../engine/builder';
import { Artifact, BuilderSession, Dataset, DatasetVersion } from '../../entities';
import { recipeOf, type FinalizeMode } from '../../services/builder/run';
import { joinTables, stepsOf } from '../../services/builder/inputs';
import { withStagedTable } from '../../services/dataset-versions';
import { ConflictError, DataError, NotFoundError } from '../../services/errors';
import type { JobFrame, JobProgress } from '../job-activity';
import { engineWork, type BuilderWorkDeps } from './work-deps';

/** What finalize and replay return (kept on the jobs row): the version they committed. */
export type CommitResult = { session_id: string; dataset_id: string; dataset_version_id: string; version: number; row_count: number };

/**
 * Finalize: the last executed step's output becomes a new version of the session's dataset (or a new dataset),
 * committed through `DatasetVersions.commit` (re-read, re-validated and quality-scored like an upload), its `source`
 * recording the session and the recipe; the source version is never touched. The session then holds the recipe and
 * the result; if the commit fails, nothing was written (the commit is one transaction) and the job fails the session.
 */
export async function finalizeSession(
  deps: BuilderWorkDeps,
  p: { sessionId: string; mode: FinalizeMode; name: string | null; description: string | null },
  progress: JobProgress,
  frame: JobFrame,
): Promise<CommitResult> {
  const { ds } = deps;
  const session = await ds.getRepository(BuilderSession).findOneBy({ id: p.sessionId });
  if (!session) throw new NotFoundError('Builder session not found');
  if (session.status !== 'finalizing') throw new ConflictError('The session is no longer being finalized');
  const steps = await stepsOf(ds, session.id);
  const last = steps.filter((s) => s.status === 'executed' && s.outputArtifactId).sort((a, b) => b.position - a.position)[0];
  if (!last) throw new ConflictError('Nothing to finalize: execute at least one step first');
  const artifact = await ds.getRepository(Artifact).findOneBy({ id: last.outputArtifactId! });
  if (!artifact) throw new DataError(`The output of step ${last.name} is gone: execute it again`);
  const dataset = await ds.getRepository(Dataset).findOneBy({ id: session.datasetId });
  const source = await ds.getRepository(DatasetVersion).findOneBy({ id: session.sourceVersionId });
  if (!dataset || !source) throw new NotFoundError('Dataset not found');
  const { recipe, replayable } = recipeOf(steps);
  await progress(20, 'validating the result');
  const description = p.description ?? `Prepared by the builder session "${session.name}" from v${source.version}`;
  const target = p.mode === 'new_version' ? { id: dataset.id, name: dataset.name, description: dataset.description } : { name: (p.name ?? `${dataset.name} (prepared)`).slice(0, 200), description };
  const committed = await commitTable(deps, await deps.store.localPath(artifact.storageKey), {
    projectId: session.projectId,
    dataset: target,
    description,
    origin: { filename: `${dataset.name}-builder.parquet`, builder_session_id: session.id, recipe, source_version_id: source.id },
    userId: session.createdBy,
    heartbeat: () => frame.keepAlive(),
  });
  await progress(95, 'recording the recipe');
  await ds.getRepository(BuilderSession).update({ id: session.id }, { resultVersionId: committed.version.id, recipe: recipe as never, replayable });
  return { session_id: session.id, dataset_id: committed.dataset.id, dataset_version_id: committed.version.id, version: committed.version.version, row_count: committed.version.rowCount };
}

/**
 * Replay: the finalized recipe run on another version of the project, by the same engine as the steps (DuckDB,
 * streamed), committed as a new version of that version's dataset with the same lineage.
 */
export async function replayRecipe(deps: BuilderWorkDeps, p: { sessionId: string; versionId: string }, progress: JobProgress, frame: JobFrame): Promise<CommitResult> {
  const { ds } = deps;
  const session = await ds.getRepository(BuilderSession).findOneBy({ id: p.sessionId });
  if (!session?.recipe) throw new NotFoundError('Builder session not found');
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: p.versionId });
  const dataset = version ? await ds.getRepository(Dataset).findOneBy({ id: version.datasetId }) : null;
  if (!version || !dataset || dataset.projectId !== session.projectId) throw new NotFoundError('Dataset version not found');
  const recipe = session.recipe as Operation[];
  const joins = await joinTables(deps, session.projectId, recipe);
  fs.mkdirSync(deps.tmpRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(deps.tmpRoot, 'builder-replay-'));
  try {
    const output = path.join(dir, 'replayed.parquet');
    await progress(5, `replaying ${recipe.length} operation(s) on ${version.rowCount} rows`);
    const input = await deps.datasetVersions.parquetPath(version);
    await engineWork(() => executeOperations({ input, output, operations: recipe, joins: joins.paths, signal: frame.signal, onProgress: () => frame.keepAlive() }));
    await progress(80, 'validating the result');
    const committed = await commitTable(deps, output, {
      projectId: session.projectId,
      dataset: { id: dataset.id, name: dataset.name, description: dataset.description },
      description: `v${version.version} through the recipe of the builder session "${session.name}"`,
      origin: { filename: `${dataset.name}-builder.parquet`, builder_session_id: session.id, recipe, source_version_id: version.id },
      userId: session.createdBy,
      heartbeat: () => frame.keepAlive(),
    });
    return { session_id: session.id, dataset_id: committed.dataset.id, dataset_version_id: committed.version.id, version: committed.version.version, row_count: committed.version.rowCount };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A Parquet table through ingest (the upload's checks and limits) into a committed version. The staging and the
 * quality report are DuckDB statements of minutes on a large table: the service beats `heartbeat` while they run.
 */
async function commitTable(
  deps: BuilderWorkDeps,
  file: string,
  p: {
    projectId: string;
    dataset: { id?: string; name: string; description: string };
    description: string;
    origin: { filename: string; [k: string]: unknown };
    userId: string | null;
    heartbeat: () => void;
  },
) {
  const { limits } = deps;
  const policy = await deps.qualityPolicy(p.projectId);
  return withStagedTable(
    file,
    deps.tmpRoot,
    (staged) => deps.datasetVersions.commit({ ...p, staged, policy }),
    { maxColumns: limits.maxDatasetColumns, maxRows: limits.maxDatasetRows, maxCells: limits.maxDatasetCells },
    p.heartbeat,
  );
}
