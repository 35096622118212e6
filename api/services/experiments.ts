import type { DataSource } from 'typeorm';
import { Artifact, Dataset, DatasetVersion, Experiment, Model } from '../../entities';
import { parseAutoMLConfig, normalizeProblemType, Kind } from '../../engine/automl';
import type { ArtifactStore } from '../../platform/artifact-store';
import { HttpError, notFound, unprocessable } from '../errors';
import { assertProjectAccess } from './access';
import { withConnection, queryOne, sqlIdent, parquetSource } from '../../engine/data/duck';

/** Most classes a classification target may have. */
export const MAX_CLASSES = 100;

/**
 * Checks an experiment request against its data: the version is in the project, the target
 * exists, the problem type fits the target (binary or multiclass detected from its distinct
 * values), and the config is valid for that kind.
 */
export async function validateExperimentRequest(
  ds: DataSource,
  store: ArtifactStore,
  body: { project_id: string; dataset_version_id: string; target_column: string; problem_type: string; config?: unknown },
) {
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: body.dataset_version_id });
  const dataset = version ? await ds.getRepository(Dataset).findOneBy({ id: version.datasetId }) : null;
  if (!version || !dataset || dataset.projectId !== body.project_id) throw notFound('Dataset version not found');
  const problemType = normalizeProblemType(body.problem_type);
  if (!problemType) throw unprocessable('Invalid problem_type');
  const column = version.columns.find((c) => c.name === body.target_column);
  if (!column) throw unprocessable('target_column not found in dataset');
  const artifact = await ds.getRepository(Artifact).findOneByOrFail({ id: version.artifactId });
  const path = store.pathOf(artifact.storageKey);
  const stats = await withConnection((conn) =>
    queryOne(conn, `SELECT count(DISTINCT ${sqlIdent(column.name)})::BIGINT AS n, count(${sqlIdent(column.name)})::BIGINT AS present FROM ${parquetSource(path)}`),
  );
  const distinct = Number(stats.n);
  if (Number(stats.present) === 0) throw unprocessable(`target_column ${column.name} has no values`);
  let kind: Kind;
  if (problemType === 'regression') {
    if (!['int64', 'float64'].includes(column.dtype)) throw unprocessable(`regression needs a numeric target; ${column.name} is ${column.dtype}`);
    kind = 'regression';
  } else {
    if (distinct < 2) throw unprocessable(`classification needs at least two classes; ${column.name} has ${distinct}`);
    if (distinct > MAX_CLASSES) throw unprocessable(`classification supports at most ${MAX_CLASSES} classes; ${column.name} has ${distinct} distinct values`);
    if (column.dtype === 'float64') throw unprocessable(`classification needs a categorical or integer target; ${column.name} is float64`);
    kind = distinct === 2 ? 'binary' : 'multiclass';
    if (body.problem_type === 'binary' && kind !== 'binary') throw unprocessable(`problem_type binary needs two classes; ${column.name} has ${distinct}`);
  }
  const parsed = parseAutoMLConfig(body.config, kind);
  if (!parsed.config) throw new HttpError(422, parsed.issues.map((i) => ({ loc: ['body', ...i.loc], msg: i.msg, type: 'value_error' })));
  return { version, dataset, problemType, kind, config: parsed.config };
}

/** Deletes the models of an experiment (or one model) with their artifact files. */
export async function deleteModels(ds: DataSource, store: ArtifactStore, where: { experimentId?: string; id?: string }): Promise<void> {
  const models = await ds.getRepository(Model).findBy(where);
  if (!models.length) return;
  const artifactIds = models.flatMap((m) => [m.artifactId, m.onnxArtifactId].filter((x): x is string => !!x));
  const artifacts = await ds.getRepository(Artifact).createQueryBuilder('a').where('a.id IN (:...ids)', { ids: artifactIds }).getMany();
  await ds.transaction(async (em) => {
    await em.getRepository(Model).delete(models.map((m) => m.id));
    await em.getRepository(Artifact).delete(artifactIds);
  });
  for (const a of artifacts) store.remove(a.storageKey);
}

export async function experimentForUser(ds: DataSource, userId: string, id: string, minRole: 'viewer' | 'editor' = 'viewer'): Promise<Experiment> {
  const exp = await ds.getRepository(Experiment).findOneBy({ id });
  if (!exp) throw notFound('Experiment not found');
  await assertProjectAccess(ds.manager, userId, exp.projectId, 'Experiment not found', minRole);
  return exp;
}

export async function modelForUser(ds: DataSource, userId: string, id: string, minRole: 'viewer' | 'editor' = 'viewer'): Promise<Model> {
  const m = await ds.getRepository(Model).findOneBy({ id });
  if (!m) throw notFound('Model not found');
  await assertProjectAccess(ds.manager, userId, m.projectId, 'Model not found', minRole);
  return m;
}
