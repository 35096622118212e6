import { ApiClient, eventually } from './client';

/**
 * A small synthetic binary-classification table: two numeric features (`x1` ~ N(0,1),
 * `x2` ~ U(0,10)), a categorical `color` (red/green/blue with shares 1/2, 1/3, 1/6) and the
 * target `y`. Seeded, so every run trains on the same rows; `shift` moves x1 by that much and
 * turns most colors to blue, for drift tests.
 */
export function syntheticRows(n: number, seed = 7, shift = 0): Record<string, number | string>[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const rows: Record<string, number | string>[] = [];
  for (let i = 0; i < n; i++) {
    const x1 = Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd()) + shift;
    const x2 = rnd() * 10;
    const u = rnd();
    const color = shift ? (u < 0.9 ? 'blue' : 'red') : u < 1 / 2 ? 'red' : u < 5 / 6 ? 'green' : 'blue';
    const y = x1 + (color === 'red' ? 0.8 : 0) - x2 / 10 + (rnd() - 0.5) > 0 ? 'pos' : 'neg';
    rows.push({ x1: Number(x1.toFixed(4)), x2: Number(x2.toFixed(4)), color, y });
  }
  return rows;
}

export function toCsv(rows: Record<string, number | string>[]): string {
  const cols = Object.keys(rows[0]);
  return [cols.join(','), ...rows.map((r) => cols.map((c) => r[c]).join(','))].join('\n') + '\n';
}

/**
 * Uploads the synthetic table to a project and trains a quick experiment on it (no ensembles,
 * 2-fold CV): `algos` picks the learners, one model each. Resolves to the models' ids by algo.
 */
export async function trainQuickModels(client: ApiClient, projectId: string, algos: ('GLM' | 'GBM')[], rows = 400): Promise<{ datasetId: string; versionId: string; models: Record<string, string> }> {
  const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'synthetic' }, { name: 'synthetic.csv', data: toCsv(syntheticRows(rows)) });
  if (up.status !== 201) throw new Error(`upload failed ${up.status} ${JSON.stringify(up.body)}`);
  const exclude = ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GLM', 'GBM'].filter((a) => !algos.includes(a as 'GLM'));
  const r = await client.post('/api/experiments', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name: 'quick',
    target_column: 'y',
    problem_type: 'binary',
    config: { max_models: algos.length, nfolds: 2, seed: 1, exclude_algos: exclude },
  });
  if (r.status !== 201) throw new Error(`experiment failed ${r.status} ${JSON.stringify(r.body)}`);
  return { datasetId: up.body.dataset_id as string, versionId: up.body.dataset_version_id, models: await trainedModels(client, r.body.id) };
}

/**
 * A small synthetic regression table: `width` numeric features `f1…f<width>` ~ U(-1, 1) and the
 * target `y`, a linear mix of them (feature k weighs k) plus a little noise. Seeded, so every
 * run trains on the same rows; wider than ten features, so top-10 lists are really cut.
 */
export function syntheticRegressionRows(n: number, width = 12, seed = 11): Record<string, number>[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return Array.from({ length: n }, () => {
    const row: Record<string, number> = {};
    let y = 0;
    for (let k = 1; k <= width; k++) {
      const f = rnd() * 2 - 1;
      row[`f${k}`] = Number(f.toFixed(4));
      y += k * f;
    }
    row.y = Number((y + (rnd() - 0.5) * 0.1).toFixed(4));
    return row;
  });
}

/**
 * Uploads the synthetic regression table and trains one GLM on it, scored on a validation split
 * (no cross-validation): a regression model in a few seconds.
 */
export async function trainQuickRegression(client: ApiClient, projectId: string, rows = 300): Promise<{ versionId: string; modelId: string }> {
  const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'synthetic regression' }, { name: 'regression.csv', data: toCsv(syntheticRegressionRows(rows)) });
  if (up.status !== 201) throw new Error(`upload failed ${up.status} ${JSON.stringify(up.body)}`);
  const r = await client.post('/api/experiments', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name: 'quick regression',
    target_column: 'y',
    problem_type: 'regression',
    config: { max_models: 1, nfolds: 0, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] },
  });
  if (r.status !== 201) throw new Error(`experiment failed ${r.status} ${JSON.stringify(r.body)}`);
  return { versionId: up.body.dataset_version_id, modelId: (await trainedModels(client, r.body.id)).GLM };
}

/** Waits for an experiment to succeed; its models' ids by algo. */
async function trainedModels(client: ApiClient, experimentId: string): Promise<Record<string, string>> {
  const done = await eventually(
    async () => {
      const s = await client.get(`/api/experiments/${experimentId}/status`);
      return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
    },
    240_000,
    500,
  );
  if (done.status !== 'succeeded') throw new Error(`training ${done.status}`);
  const e = (await client.get(`/api/experiments/${experimentId}`)).body;
  const models: Record<string, string> = {};
  for (const m of e.models as { id: string; algo: string }[]) models[m.algo] = m.id;
  return models;
}
