import { createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * Fair shares of the workers between users (issue 27, finding 3): one user's fifty long synthgen trainings must not
 * keep another user's drift check waiting. The ml-cpu worker has two slots; before the fix, Temporal handed them out
 * first-in-first-out and the drift job waited behind all fifty.
 */

let stack: TestStack;

const HEAVY_JOBS = 50;
const OPEN = ['queued', 'running'];

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000', RATE_LIMIT_GENERAL: '1000' } });
}, 120_000);
afterAll(async () => stack?.stop());

describe('fair shares of the workers', () => {
  it("while one user has 50 heavy jobs open, another user's drift job starts within 30 s; the heavy user's jobs wait their turn", async () => {
    // The second user: a deployment with logged inputs, ready for a drift check.
    const other = await signUp(stack.baseUrl, stack.mail);
    const otherProject = await createProject(other.client, 'steady tenant');
    const glm = (await trainQuickModels(other.client, otherProject, ['GLM'])).models.GLM;
    const dep = await other.client.post(`/api/mlops/projects/${otherProject}/deployments`, { model_id: glm, name: 'watched', stage: 'production', store_payload: true });
    expect(dep.status).toBe(201);
    const rows = syntheticRows(200, 5, 2);
    for (let i = 0; i < rows.length; i += 50) {
      const r = await other.client.post(`/api/mlops/deployments/${dep.body.id}/predict`, { inputs: rows.slice(i, i + 50).map(({ y: _y, ...x }) => x), options: { store_payload: true } });
      expect(r.status).toBe(200);
    }

    // The heavy user: fifty CTGAN trainings of many epochs each (minutes apiece on these cores).
    const heavy = await signUp(stack.baseUrl, stack.mail);
    const heavyProject = await createProject(heavy.client, 'busy tenant');
    const up = await heavy.client.upload('/api/datasets/upload', { project_id: heavyProject, name: 'titanic' }, datasetFile('titanic.csv'));
    expect(up.status).toBe(201);
    const jobIds: string[] = [];
    for (let i = 0; i < HEAVY_JOBS; i++) {
      const r = await heavy.client.post('/api/synthgen/models', {
        project_id: heavyProject,
        dataset_version_id: up.body.dataset_version_id,
        name: `heavy ${i}`,
        model_type: 'ctgan',
        config: { epochs: 1000, batch_size: 100, pac: 10, embedding_dim: 32, generator_dim: [64, 64], discriminator_dim: [64, 64], seed: i },
      });
      expect(r.status).toBe(201);
      jobIds.push(r.body.job_id);
    }
    const statuses = async () => {
      const rows: { status: string; admitted: boolean; message: string }[] = await stack.ds.query('SELECT status, admitted_at IS NOT NULL AS admitted, message FROM jobs WHERE id = ANY($1)', [jobIds]);
      return rows;
    };
    // The heavy user's first training holds one slot (its share); the others wait without a slot.
    await eventually(async () => (await statuses()).some((s) => s.status === 'running') || undefined, 60_000, 250);

    const asked = Date.now();
    const run = await other.client.post(`/api/mlops/deployments/${dep.body.id}/drift/run`);
    expect(run.status).toBe(200);
    const started = await eventually(
      async () => {
        const j = (await other.client.get(`/api/jobs/${run.body.job_id}`)).body.job;
        return j.status !== 'queued' ? j : undefined;
      },
      30_000,
      200,
    );
    expect(started.status).not.toBe('failed');
    expect(Date.now() - asked).toBeLessThan(30_000);
    // It runs to the end while the heavy user's backlog is still there.
    const done = await eventually(
      async () => {
        const j = (await other.client.get(`/api/jobs/${run.body.job_id}`)).body.job;
        return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
      },
      60_000,
      250,
    );
    expect(done.status).toBe('succeeded');

    const heavyNow = await statuses();
    expect(heavyNow.filter((s) => s.status === 'running')).toHaveLength(1);
    const waiting = heavyNow.filter((s) => s.status === 'queued');
    expect(waiting.length).toBeGreaterThanOrEqual(HEAVY_JOBS - 2);
    expect(waiting.every((s) => !s.admitted)).toBe(true);
    // The waiting jobs say why they wait (once their workflow has asked).
    expect(waiting.some((s) => /^waiting: another job of this user is running, at most 1 at once \(MAX_RUNNING_JOBS_PER_USER\)/.test(s.message))).toBe(true);

    // Cancelling the running one wakes the next at once rather than at the waiters' next poll (30 s).
    const [running]: { id: string }[] = await stack.ds.query(`SELECT id FROM jobs WHERE id = ANY($1) AND status = 'running'`, [jobIds]);
    expect((await heavy.client.post(`/api/jobs/${running.id}/cancel`)).status).toBe(200);
    const cancelledAt = Date.now();
    await eventually(
      async () => {
        const rows: { id: string }[] = await stack.ds.query(`SELECT id FROM jobs WHERE id = ANY($1) AND status = 'running' AND id <> $2`, [jobIds, running.id]);
        return rows.length === 1 || undefined;
      },
      20_000,
      200,
    );
    expect(Date.now() - cancelledAt).toBeLessThan(20_000);

    // Leave nothing running for the next test file.
    for (const id of jobIds) {
      const j = (await heavy.client.get(`/api/jobs/${id}`)).body.job;
      if (OPEN.includes(j.status)) await heavy.client.post(`/api/jobs/${id}/cancel`);
    }
    await eventually(async () => (await statuses()).every((s) => !OPEN.includes(s.status)) || undefined, 120_000, 500);
  }, 600_000);
});
