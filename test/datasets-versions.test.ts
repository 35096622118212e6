import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * Issue 33, item 7 through HTTP on the real stack: the version-scoped preview, quality and analysis; quality checks
 * that depend on a target use the one named (or the latest experiment's) and otherwise say they need one, never a
 * guess; statistics computed in the background for every version, once, with a failure visible on the version.
 */
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let datasetId: string;

/** Passengers: `class` would be a named guess and `pclass` the last-column one; the target is `survived`. */
function passengers(n: number, offset = 0): string {
  const lines = ['name,sex,age,survived,class,pclass'];
  for (let i = offset; i < offset + n; i++) lines.push(`P${i},${i % 2 ? 'male' : 'female'},${20 + (i % 50)},${i % 5 === 0 ? 1 : 0},${['First', 'Second', 'Third'][i % 3]},${(i % 3) + 1}`);
  return lines.join('\n') + '\n';
}

type Check = { name: string; passed: boolean; details: string; needs_target?: boolean };
const check = (checks: Check[], name: string) => checks.find((c) => c.name === name)!;

beforeAll(async () => {
  stack = await startStack({ workers: ['cpu'] });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Versions');
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'passengers' }, { name: 'passengers.csv', data: passengers(40) });
  expect(up.status).toBe(201);
  datasetId = up.body.dataset_id ?? up.body.id;
  const v1 = await owner.client.upload(`/api/datasets/${datasetId}/versions`, { description: 'more passengers' }, { name: 'more.csv', data: passengers(60, 1000) });
  expect(v1.status).toBe(201);
}, 300_000);
afterAll(async () => stack?.stop());

describe('version-scoped data', () => {
  it('previews and analyzes the version asked for, the latest without one', async () => {
    const latest = await owner.client.get(`/api/datasets/${datasetId}`);
    expect(latest.body).toMatchObject({ preview_version: 1, dataset: { version: 1 } });
    expect(latest.body.preview[0].name).toBe('P1000');
    const first = await owner.client.get(`/api/datasets/${datasetId}?version=0`);
    expect(first.body).toMatchObject({ preview_version: 0, dataset: { version: 1 } });
    expect(first.body.preview[0].name).toBe('P0');
    expect((await owner.client.get(`/api/datasets/${datasetId}/analyze?version=0`)).body.statistics.row_count).toBe(40);
    expect((await owner.client.get(`/api/datasets/${datasetId}/analyze`)).body.statistics.row_count).toBe(60);
    expect((await owner.client.get(`/api/datasets/${datasetId}/quality?version=0`)).body.quality.version).toBe(0);
  });
});

describe('quality target', () => {
  it('lists class balance as needing a target when none is named, and leaves it out of the score', async () => {
    const q = (await owner.client.get(`/api/datasets/${datasetId}/quality`)).body.quality;
    expect(q).toMatchObject({ target: null, target_source: null, target_experiment: null, version: 1 });
    const balance = check(q.checks, 'class_imbalance');
    expect(balance).toMatchObject({ needs_target: true, details: expect.stringContaining('Needs a target') });
    expect(balance.details).not.toMatch(/\bp?class\b/);
    const computed = (q.checks as Check[]).filter((c) => !c.needs_target);
    expect(computed).toHaveLength(q.checks.length - 1);
    expect(q.overall_score).toBe(Math.round((computed.filter((c) => c.passed).length / computed.length) * 1000) / 10);
  });

  it('checks the balance of the target named, on the version named', async () => {
    const q = (await owner.client.get(`/api/datasets/${datasetId}/quality?target=survived&version=0`)).body.quality;
    expect(q).toMatchObject({ target: 'survived', target_source: 'request', version: 0 });
    const balance = check(q.checks, 'class_imbalance');
    expect(balance.needs_target).toBeUndefined();
    // 8 of 40 survived: 25% against the default minimum of 10%.
    expect(balance).toMatchObject({ passed: true, details: expect.stringContaining('Target survived has 2 classes; the rarest has 8 rows and the most frequent 32') });
    expect(q.overall_score).toBe(Math.round(((q.checks as Check[]).filter((c) => c.passed).length / q.checks.length) * 1000) / 10);
  });

  it('uses the target of the latest experiment on the dataset when none is named', async () => {
    const versionId = (await owner.client.get(`/api/datasets/${datasetId}/versions`)).body.items[1].id;
    const e = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: versionId,
      name: 'who survived',
      target_column: 'survived',
      problem_type: 'classification',
      config: { max_models: 1 },
    });
    expect(e.status).toBe(201);
    // The experiment row is what counts here; its training is not needed.
    await owner.client.post(`/api/jobs/${e.body.job_id}/cancel`);
    const q = (await owner.client.get(`/api/datasets/${datasetId}/quality`)).body.quality;
    expect(q).toMatchObject({ target: 'survived', target_source: 'experiment', target_experiment: { id: e.body.id, name: 'who survived' } });
    expect(check(q.checks, 'class_imbalance').details).toContain('Target survived');
    // A target named in the request wins.
    expect((await owner.client.get(`/api/datasets/${datasetId}/quality?target=sex`)).body.quality).toMatchObject({ target: 'sex', target_source: 'request' });
  });

  it('answers an unknown column, a wrong version and hostile parameters with 4xx, never 500', async () => {
    const unknown = await owner.client.get(`/api/datasets/${datasetId}/quality?target=alive`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['query', 'target'], msg: 'Unknown column: alive is not a column of version 1' });
    for (const bad of ['target=', `target=${encodeURIComponent('surv\u0000ived')}`, `target=${'x'.repeat(1001)}`, 'version=-1', 'version=2147483648', 'version=abc', 'version=1.5']) {
      const r = await owner.client.get(`/api/datasets/${datasetId}/quality?${bad}`);
      expect([bad, r.status]).toEqual([bad, 422]);
    }
    expect(await owner.client.get(`/api/datasets/${datasetId}/quality?version=7`)).toMatchObject({ status: 404, body: { detail: 'Dataset version not found' } });
    expect((await owner.client.get(`/api/datasets/${datasetId}?version=7`)).status).toBe(404);
    expect((await owner.client.get(`/api/datasets/${datasetId}/analyze?version=2147483648`)).status).toBe(422);
    expect((await stranger.client.get(`/api/datasets/${datasetId}/quality?target=survived`)).status).toBe(404);
    expect((await stranger.client.get(`/api/datasets/${datasetId}?version=0`)).status).toBe(404);
    const key = await owner.client.post('/api/auth/api-keys', { name: 'no data', scopes: ['read:privacy'] });
    expect((await owner.client.withKey(key.body.api_key).get(`/api/datasets/${datasetId}/quality`)).status).toBe(403);
  });
});

describe('statistics for every version', () => {
  const versions = async (client: ApiClient = owner.client) =>
    (await client.get(`/api/datasets/${datasetId}/versions`)).body.items as { id: string; version: number; statistics_status: string; statistics_error: string | null }[];

  it('profiles each new version in one background job, which the version shows', async () => {
    const ready = await eventually(async () => {
      const v = await versions();
      return v.every((x) => x.statistics_status === 'ready') ? v : undefined;
    }, 90_000);
    expect(ready.map((v) => v.statistics_error)).toEqual([null, null]);
    const stored: { id: string; rows: string }[] = await stack.ds.query(`SELECT id, statistics->>'row_count' AS rows FROM dataset_versions WHERE dataset_id = $1 ORDER BY version`, [datasetId]);
    expect(stored.map((s) => Number(s.rows))).toEqual([40, 60]);
    // One job per version, however often the versions were read or analyzed.
    const jobs: { entity_id: string; n: number }[] = await stack.ds.query(`SELECT entity_id, count(*)::int AS n FROM jobs WHERE kind = 'dataset_profile' AND entity_id = ANY($1) GROUP BY entity_id`, [
      ready.map((v) => v.id),
    ]);
    expect(jobs.map((j) => j.n)).toEqual([1, 1]);
    expect((await owner.client.get(`/api/dataset-versions/${ready[0].id}`)).body.statistics_status).toBe('ready');
  });

  it("shows a failed profile job's error on the version instead of losing it", async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'later' }, { name: 'later.csv', data: passengers(10) });
    const versionId = up.body.dataset_version_id;
    const [job] = await eventually(async () => {
      const rows: { id: string; status: string }[] = await stack.ds.query(`SELECT id, status FROM jobs WHERE kind = 'dataset_profile' AND entity_id = $1`, [versionId]);
      return rows.length && ['succeeded', 'failed'].includes(rows[0].status) ? rows : undefined;
    }, 90_000);
    // Nothing here asked for an analysis: the background job alone computed and stored the statistics.
    expect(job.status).toBe('succeeded');
    expect((await owner.client.get(`/api/dataset-versions/${versionId}`)).body).toMatchObject({ statistics_status: 'ready', statistics_error: null });
    // What a failed run leaves: no statistics and the job failed with its error (a corrupt file cannot be made here
    // without breaking the version itself).
    await stack.ds.query(`UPDATE dataset_versions SET statistics = NULL WHERE id = $1`, [versionId]);
    await stack.ds.query(`UPDATE jobs SET status = 'failed', error = 'The dataset version cannot be profiled: out of memory' WHERE id = $1`, [job.id]);
    const v = (await owner.client.get(`/api/dataset-versions/${versionId}`)).body;
    expect(v).toMatchObject({ statistics_status: 'failed', statistics_error: 'The dataset version cannot be profiled: out of memory' });
    const listed = (await owner.client.get(`/api/datasets/${up.body.dataset_id ?? up.body.id}/versions`)).body.items[0];
    expect(listed).toMatchObject({ statistics_status: 'failed', statistics_error: expect.stringContaining('out of memory') });
  });
});
