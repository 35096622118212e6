import path from 'node:path';
import type { DataSource } from 'typeorm';
import { Artifact, Experiment, Model } from '../entities';
import { AutoMLConfig, metricKey, readParquetFrame } from '../engine/automl';
import { preview } from '../engine/data';
import { setOwn } from '../engine/own-keys';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import { scratchDir } from '../platform/scratch';
import type { Access } from './access';
import { withStagedTable } from './dataset-versions';
import { NotFoundError, ValidationError } from './errors';
import { refuseDeployedModels } from './deployed-models';
import type { ExperimentService } from './experiments';
import type { Page } from './lists';
import { compareModels } from './model-comparison';
import { listModels, type ModelFilter, type ModelListing } from './model-list';
import type { ModelServing } from './model-serving';

export type { ModelFilter, ModelListing } from './model-list';

/** A model with the names lists show beside it. */
export interface NamedModel {
  model: Model;
  experimentName: string | null;
  projectName: string | null;
}

/** What training produced for one model, ready to be recorded. */
export interface TrainedModelFiles {
  /** The model's JSON form (what the TypeScript scorer and TreeSHAP load). */
  modelJson: Buffer;
  onnx: Buffer;
  /** Out-of-fold scores, for stacking. */
  holdout: Buffer;
  fields: Pick<Model, 'metrics' | 'parameters' | 'explain' | 'trainingTimeMs' | 'predictTimePerRowMs'>;
}

/** Models: queries, deletion, file predictions, and recording what training produced. */
export class ModelService {
  readonly tmpRoot: string;

  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly access: Access,
    private readonly serving: ModelServing,
    private readonly experiments: ExperimentService,
    config: Config,
  ) {
    this.tmpRoot = scratchDir(path.join(config.dataDir, 'tmp'), 'predict');
  }

  /** One page of the user's models with their experiment's metric, dataset version and deployment (services/model-list.ts). */
  list(userId: string, q: ModelFilter): Promise<Page<ModelListing>> {
    return listModels(this.ds, userId, q);
  }

  /** Two or more models of one project side by side (services/model-comparison.ts). */
  compare(userId: string, projectId: string, modelIds: string[]) {
    return compareModels(this.ds, this.access, userId, projectId, modelIds);
  }

  /** The model the user can read, with its experiment's and project's names and its input schema. */
  async detail(userId: string, modelId: string) {
    const model = await this.access.model(userId, modelId);
    const [names] = await this.ds.query('SELECT e.name AS experiment_name, p.name AS project_name FROM experiments e JOIN projects p ON p.id = e.project_id WHERE e.id = $1', [model.experimentId]);
    const deployments: { id: string; name: string; stage: string; is_active: boolean }[] = await this.ds.query(
      'SELECT id, name, stage, is_active FROM deployments WHERE model_id = $1 ORDER BY created_at, id',
      [model.id],
    );
    return { named: { model, experimentName: names?.experiment_name ?? null, projectName: names?.project_name ?? null }, inputSchema: await this.serving.schema(model), deployments };
  }

  forUser(userId: string, modelId: string): Promise<Model> {
    return this.access.model(userId, modelId);
  }

  /**
   * Scores a CSV or Parquet file: its rows with `pred_predict` and one probability column per
   * class. The file needs at least one of the model's input columns.
   */
  async predictFile(model: Model, file: string) {
    return withStagedTable(file, this.tmpRoot, async (staged) => {
      const parquet = staged.ingest.parquet_path;
      const frame = await readParquetFrame(parquet);
      const schema = await this.serving.schema(model);
      const missing = schema.filter((c) => !frame.names.includes(c.name)).map((c) => c.name);
      if (missing.length === schema.length) throw new ValidationError(`The file has none of the model's input columns (${schema.map((c) => c.name).join(', ')})`);
      const out = await this.serving.predictFrame(model, null, frame);
      const rows = await preview(parquet, frame.nrows);
      const predictions = rows.map((r, i) => {
        const p = out.predictions[i];
        const row: Record<string, unknown> = { ...r, pred_predict: p.prediction };
        if (p.probabilities) for (const [label, v] of Object.entries(p.probabilities)) setOwn(row, label, v);
        return row;
      });
      return { predictions, cache: out.cache };
    });
  }

  /** Deletes a model and its files (editor or above); an experiment that had it as best has none. */
  async delete(userId: string, modelId: string): Promise<void> {
    const model = await this.access.model(userId, modelId, 'editor');
    const keys = await this.ds.transaction(async (em) => {
      await refuseDeployedModels(em, 'SELECT id FROM models WHERE id = $1', [model.id], 'Model has an active deployment: deactivate it first');
      const files: { storage_key: string }[] = await em.query(`SELECT storage_key FROM artifacts WHERE owner_type = 'model' AND owner_id = $1`, [model.id]);
      await em.getRepository(Model).delete({ id: model.id });
      await em.query(`DELETE FROM artifacts WHERE owner_type = 'model' AND owner_id = $1`, [model.id]);
      await em.getRepository(Experiment).update({ bestModelId: model.id }, { bestModelId: null });
      return files.map((f) => f.storage_key);
    });
    await Promise.all(keys.map((key) => this.store.remove(key)));
    this.serving.forget(model.id);
  }

  /**
   * Records a trained model: its JSON, ONNX graph and out-of-fold scores as artifacts, and the
   * model row, in one transaction that holds the experiment's row (so a concurrent delete of the
   * experiment either waits for the model or finds it gone). The files are removed only when
   * the transaction did not commit. A model already recorded under this name (a retried
   * activity) is returned as it is.
   */
  async recordTrained(experimentId: string, p: { name: string; algo: string; sequence: number; files: TrainedModelFiles }): Promise<string> {
    const exp = await this.ds.getRepository(Experiment).findOneBy({ id: experimentId });
    if (!exp) throw new NotFoundError(`Experiment ${experimentId} no longer exists`);
    const existing = await this.ds.getRepository(Model).findOneBy({ experimentId, name: p.name });
    if (existing) return existing.id;
    const files: [string, string, string, Buffer][] = [
      ['model_binary', `${p.name}.model.json`, 'application/json', p.files.modelJson],
      ['onnx', `${p.name}.onnx`, 'application/octet-stream', p.files.onnx],
      ['cv_predictions', `${p.name}.holdout.bin`, 'application/octet-stream', p.files.holdout],
    ];
    const stored = await Promise.all(files.map(([, filename, , bytes]) => this.store.put(exp.projectId, filename, bytes)));
    let modelId: string;
    try {
      modelId = await this.ds.transaction(async (em) => {
        const held = await em.query('SELECT id FROM experiments WHERE id = $1 FOR SHARE', [experimentId]);
        if (!held[0]) throw new NotFoundError(`Experiment ${experimentId} no longer exists`);
        const model = em.getRepository(Model).create({ projectId: exp.projectId, experimentId, name: p.name, algo: p.algo, sequence: p.sequence });
        const arts = files.map(([kind, filename, contentType], i) =>
          em.getRepository(Artifact).create({
            projectId: exp.projectId,
            kind,
            ownerType: 'model',
            ownerId: model.id,
            filename,
            contentType,
            sizeBytes: stored[i].sizeBytes,
            sha256: stored[i].sha256,
            storageKey: stored[i].storageKey,
          }),
        );
        await em.getRepository(Artifact).insert(arts);
        Object.assign(model, {
          isBest: false,
          isProduction: false,
          isStaging: false,
          stagingDeploymentId: null,
          ...p.files.fields,
          explain: { ...p.files.fields.explain, cv_predictions_artifact_id: arts[2].id },
          artifactId: arts[0].id,
          onnxArtifactId: arts[1].id,
        });
        await em.getRepository(Model).insert(model);
        return model.id;
      });
    } catch (err) {
      await Promise.all(stored.map((o) => this.store.remove(o.storageKey)));
      if ((err as { code?: string }).code === '23505') return (await this.ds.getRepository(Model).findOneByOrFail({ experimentId, name: p.name })).id;
      throw err;
    }
    const metric = (exp.config as AutoMLConfig).sort_metric;
    const value = p.files.fields.metrics[metricKey(metric)];
    await this.experiments.appendLog(experimentId, 'service', [
      `${p.name} done in ${(p.files.fields.trainingTimeMs / 1000).toFixed(1)}s: ${metric} ${typeof value === 'number' ? value.toFixed(5) : value}`,
    ]);
    const [{ n }] = await this.ds.query('SELECT count(*)::int AS n FROM models WHERE experiment_id = $1', [experimentId]);
    await this.experiments.mergeProgress(experimentId, { models_done: n, current: null });
    return modelId;
  }

  /** The stored bytes of an artifact (model JSON, out-of-fold scores). */
  async readArtifact(artifactId: string): Promise<Buffer> {
    const a = await this.ds.getRepository(Artifact).findOneByOrFail({ id: artifactId });
    const chunks: Buffer[] = [];
    for await (const c of this.store.read(a.storageKey)) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }
}
