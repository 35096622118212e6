import { ApiClient, eventually } from './client';
import { syntheticRows, toCsv } from './trained-models';

/**
 * Uploads the synthetic binary table (300 rows) and trains GLM_1, GBM_1 and their stacked ensemble on it (2-fold CV):
 * three binary models with ROC, PR curves and threshold tables, one of them an ensemble. Resolves to their ids by
 * algo and the experiment's id.
 */
export async function trainBinaryWithEnsemble(client: ApiClient, projectId: string): Promise<{ experimentId: string; models: Record<string, string> }> {
  const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'synthetic' }, { name: 'synthetic.csv', data: toCsv(syntheticRows(300)) });
  if (up.status !== 201) throw new Error(`upload failed ${up.status} ${JSON.stringify(up.body)}`);
  const r = await client.post('/api/experiments', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name: 'binary run',
    target_column: 'y',
    problem_type: 'binary',
    config: { max_models: 2, nfolds: 2, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning'] },
  });
  if (r.status !== 201) throw new Error(`experiment failed ${r.status} ${JSON.stringify(r.body)}`);
  const done = await eventually(
    async () => {
      const s = await client.get(`/api/experiments/${r.body.id}/status`);
      return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
    },
    240_000,
    500,
  );
  if (done.status !== 'succeeded') throw new Error(`training ${done.status}`);
  const e = (await client.get(`/api/experiments/${r.body.id}`)).body;
  return { experimentId: r.body.id, models: Object.fromEntries((e.models as { id: string; algo: string }[]).map((m) => [m.algo, m.id])) };
}
