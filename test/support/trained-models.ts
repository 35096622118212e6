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
export async function trainQuickModels(client: ApiClient, projectId: string, algos: ('GLM' | 'GBM')[], rows = 400): Promise<{ versionId: string; models: Record<string, string> }> {
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
  const models: Record<string, string> = {};
  for (const m of e.models as { id: string; algo: string }[]) models[m.algo] = m.id;
  return { versionId: up.body.dataset_version_id, models };
}
