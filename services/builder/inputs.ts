import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { gatherPlannerFacts, OperationError, validateOperations, type Operation, type PlannerFacts } from '../../engine/builder';
import { DataValidationError, type ColumnInfo } from '../../engine/data';
import { Artifact, BuilderSession, BuilderStep, Dataset, DatasetVersion } from '../../entities';
import type { ArtifactStore } from '../../platform/artifact-store';
import { TtlCache } from '../../platform/ttl-cache';
import type { DatasetVersions } from '../dataset-versions';
import { DataError, ValidationError } from '../errors';

/** A step's input: the output of the nearest executed step before it, or the session's source version. */
export interface StepInput {
  /** A local Parquet path (the artifact store's file or its local copy): read it, never write it. */
  path: string;
  columns: ColumnInfo[];
  rows: number;
  /** The artifact holding it: what the facts are cached by. */
  artifactId: string;
  /** The step whose output it is, or null for the source version. */
  fromStep: string | null;
}

/** What reads a step's input: the database, the artifact store and the versions' files. */
export interface InputDeps {
  ds: DataSource;
  store: ArtifactStore;
  datasetVersions: DatasetVersions;
}

/** The session's steps in order. */
export async function stepsOf(ds: DataSource, sessionId: string): Promise<BuilderStep[]> {
  return ds.getRepository(BuilderStep).find({ where: { sessionId }, order: { position: 'ASC' } });
}

/** The input of the step at `position`: the nearest executed step before it with an output, else the source version. */
export async function stepInput(deps: InputDeps, session: BuilderSession, steps: BuilderStep[], position: number): Promise<StepInput> {
  const before = steps.filter((s) => s.position < position && s.status === 'executed' && s.outputArtifactId && s.outputColumns).sort((a, b) => b.position - a.position)[0];
  if (before) {
    const artifact = await deps.ds.getRepository(Artifact).findOneBy({ id: before.outputArtifactId! });
    if (!artifact) throw new DataError(`The output of step ${before.name} is gone: execute it again`);
    return { path: await deps.store.localPath(artifact.storageKey), columns: before.outputColumns as ColumnInfo[], rows: before.outputRows ?? 0, artifactId: artifact.id, fromStep: before.name };
  }
  const version = await deps.ds.getRepository(DatasetVersion).findOneBy({ id: session.sourceVersionId });
  if (!version) throw new DataError('The source dataset version is gone');
  return { path: await deps.datasetVersions.parquetPath(version), columns: version.columns as ColumnInfo[], rows: version.rowCount, artifactId: version.artifactId, fromStep: null };
}

/** The table a recipe or step joins: its Parquet path and columns, by dataset version id. */
export interface JoinTables {
  paths: Record<string, string>;
  columns: Record<string, ColumnInfo[]>;
}

/**
 * The versions `join` operations name, each a version of the session's project; one elsewhere (or gone) is the
 * operation's 422, as if it did not exist.
 */
export async function joinTables(deps: InputDeps, projectId: string, operations: Operation[]): Promise<JoinTables> {
  const ids = [...new Set(operations.flatMap((o) => (o.op === 'join' ? [o.dataset_version_id] : [])))];
  const out: JoinTables = { paths: {}, columns: {} };
  if (!ids.length) return out;
  const versions = await deps.ds.getRepository(DatasetVersion).findBy({ id: In(ids) });
  const datasets = await deps.ds.getRepository(Dataset).findBy({ id: In(versions.map((v) => v.datasetId)) });
  const inProject = new Set(datasets.filter((d) => d.projectId === projectId).map((d) => d.id));
  for (const v of versions.filter((v) => inProject.has(v.datasetId))) {
    out.paths[v.id] = await deps.datasetVersions.parquetPath(v);
    out.columns[v.id] = v.columns as ColumnInfo[];
  }
  const missing = operations.findIndex((o) => o.op === 'join' && !out.paths[o.dataset_version_id]);
  if (missing >= 0) throw ValidationError.field(['body', 'operations', missing], `Operation ${missing + 1} (join): no dataset version with this id in the project`, 'operation_invalid');
  return out;
}

/**
 * Checks operations against the input's columns (and the joined tables'), answering the engine's refusal as a 422
 * that names the operation (`loc: [...where, index]`) and why.
 */
export function checkOperations(operations: Operation[], columns: ColumnInfo[], joins: JoinTables, where: (string | number)[] = ['body', 'operations']): ColumnInfo[] {
  try {
    return validateOperations(operations, columns, joins.columns);
  } catch (err) {
    throw engineRefusal(err, where);
  }
}

/** How long the facts of one input are kept: an artifact never changes, so only memory bounds this. */
const FACTS_TTL_MS = 10 * 60_000;
const factsCache = new TtlCache<string, PlannerFacts>(FACTS_TTL_MS, 64);

/**
 * What the planners are given about a step's input (profile, quality checks, leakage with the session's target),
 * cached per input artifact and target: proposing and chatting on one step read the same input again and again, and
 * an artifact never changes.
 */
export async function plannerFacts(input: StepInput, target: string | null): Promise<PlannerFacts> {
  const known = target && input.columns.some((c) => c.name === target) ? target : null;
  try {
    return await factsCache.getOrLoad(`${input.artifactId}:${known ?? ''}`, () => gatherPlannerFacts(input.path, known));
  } catch (err) {
    if (err instanceof DataValidationError) throw new DataError(err.message);
    throw err;
  }
}

/** The engine's refusal of an operation (OperationError) as the 422 naming it; another refusal of the data as a DataError. */
export function engineRefusal(err: unknown, where: (string | number)[] = ['body', 'operations']): unknown {
  if (err instanceof OperationError) return ValidationError.field([...where, err.index], err.message, 'operation_invalid');
  if (err instanceof DataValidationError) return new DataError(err.message);
  return err;
}
