import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { freePort, startTemporalDevServer, DevServer } from '../../platform/temporal-dev';
import { ApiClient, createProject, signUp } from '../support/client';
import { spawnWorkerProcess, startStack, TestStack } from '../support/stack';
import { newStackFile, StackInfo } from '../support/stack-file';

/**
 * The service for the schemathesis run (`scripts/fuzz-api.sh`): the real API on a free port, with its own database
 * on the PostgreSQL of DATABASE_URL (migrated by the real migrations), a Temporal dev server (TEMPORAL_ADDRESS, or
 * a fresh one), an SMTP sink, and rate limits raised so the fuzzer's thousands of requests are not 429s. No
 * workers: jobs the fuzzer starts stay queued, and training never competes with the run for the CPU.
 *
 * Seeds what the operations can find: a verified user with a session, two projects each holding a dataset with two
 * versions and an experiment with one model, an API key with scope `*`, and a spare key and session for the revoke
 * operations. Writes
 * `{base_url, api_key, session_token, csrf_token, ...ids}` to the file named by the first argument once it is
 * ready, and stops everything on SIGTERM or SIGINT.
 */
const LIMIT = '1000000';
const CSV = [
  'species,island,bill_length_mm,body_mass_g,sex',
  ...Array.from(
    { length: 40 },
    (_, i) => `${['Adelie', 'Gentoo', 'Chinstrap'][i % 3]},${['Biscoe', 'Dream'][i % 2]},${(35 + ((i * 7) % 20)).toFixed(1)},${3000 + i * 37},${i % 2 ? 'male' : 'female'}`,
  ),
].join('\n');

async function main(): Promise<void> {
  const seedFile = process.argv[2];
  if (!seedFile) throw new Error('usage: serve.js <seed-file>');
  const adminDatabaseUrl = process.env.DATABASE_URL;
  if (!adminDatabaseUrl) throw new Error('DATABASE_URL must name a PostgreSQL server the fuzz database is created on');

  let dev: DevServer | undefined;
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    dev = await startTemporalDevServer({ port: await freePort(), uiPort: await freePort(), headless: true, log: (m) => console.log(`[temporal] ${m}`) });
    temporalAddress = dev.address;
  }
  const info: StackInfo = { adminDatabaseUrl, temporalAddress, workflowBundlePath: '', temporalCli: '' };
  const stackInfoFile = newStackFile();
  fs.writeFileSync(stackInfoFile, JSON.stringify(info));

  let stack: TestStack | undefined;
  let seed: Awaited<ReturnType<typeof seedData>> | undefined;
  const stop = async (code: number) => {
    if (stack && seed) await reportCredentials(stack, seed).catch((err) => console.error('[fuzz] could not read the credentials back', err));
    await stack?.stop().catch((err) => console.error('stopping the stack failed', err));
    await dev?.stop().catch(() => undefined);
    fs.rmSync(stackInfoFile, { force: true });
    process.exit(code);
  };
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));

  try {
    stack = await startStack({
      workers: [],
      env: {
        RATE_LIMIT_GENERAL: LIMIT,
        RATE_LIMIT_AUTH: LIMIT,
        RATE_LIMIT_PREDICT: LIMIT,
        RATE_LIMIT_TRAIN: LIMIT,
        RATE_LIMIT_REPORT: LIMIT,
        RATE_LIMIT_AI: LIMIT,
        RATE_LIMIT_MEMBERS: LIMIT,
        MAX_DATASET_UPLOAD_BYTES: String(10 * 1024 * 1024),
      },
    });
    seed = await seedData(stack);
    fs.writeFileSync(seedFile, JSON.stringify(seed, null, 2));
    console.log(`[fuzz] API ready at ${stack.baseUrl}`);
  } catch (err) {
    console.error('[fuzz] could not start the service', err);
    await stop(1);
  }
}

async function seedData(stack: TestStack) {
  const { client, user, email, password } = await signUp(stack.baseUrl, stack.mail, { name: 'Fuzz Owner' });
  const kept = await seedProject(client, 'Fuzz');
  // Delete operations get ids of their own, so the run does not delete what every other operation reads.
  const disposable = await seedProject(client, 'Fuzz disposable');
  await trainModels(stack, client, [kept, disposable]);
  const studio = await seedStudio(client, kept);
  const abTest = await seedAbTest(client, kept, studio.deployment_id);
  const synthgen = await seedSynthgen(client, kept);
  const key = await expectStatus(client.post('/api/auth/api-keys', { name: 'fuzz', scopes: ['*'] }), 201);
  // Revoke operations get a second key and a second session, so the run never revokes its own credentials.
  const spareKey = await expectStatus(client.post('/api/auth/api-keys', { name: 'fuzz spare', scopes: ['read'] }), 201);
  const second = new ApiClient(stack.baseUrl);
  await expectStatus(second.post('/api/auth/login', { email, password }), 200);
  const sessions = await expectStatus(second.get('/api/auth/sessions'), 200);
  const spareSession = (sessions.items as { id: string; current: boolean }[]).find((x) => x.current)!.id;
  return {
    base_url: stack.baseUrl,
    api_key: key.api_key as string,
    session_token: client.cookies.get('session_token'),
    csrf_token: client.cookies.get('csrf_token'),
    user_id: user.id,
    spare_key_id: spareKey.id as string,
    spare_session_id: spareSession,
    kept,
    disposable,
    studio,
    synthgen,
    ab_test: abTest,
  };
}

/**
 * A running conversion A/B test between the studio's deployment and a staging one of the same model, with a few
 * assigned requests and outcomes, so its operations answer statistics rather than 404s. Its min_samples is out of
 * reach: no winner is ever promoted over the studio's deployment.
 */
async function seedAbTest(client: ApiClient, p: SeededProject, productionId: string) {
  const staging = await expectStatus(client.post(`/api/mlops/projects/${p.project_id}/deployments`, { model_id: p.model_id, name: 'fuzz b', stage: 'staging' }), 201);
  const variants = [
    { name: 'a', deployment_id: productionId, weight: 1 },
    { name: 'b', deployment_id: staging.id, weight: 1 },
  ];
  const test = await expectStatus(client.post('/api/mlops/ab-tests', { project_id: p.project_id, name: 'fuzz', variants, primary_metric: 'conversion', min_samples: 1_000_000 }), 201);
  await expectStatus(client.post(`/api/mlops/ab-tests/${test.id}/start`), 200);
  const outcomes = [];
  for (let i = 0; i < 6; i++) {
    const r = await expectStatus(client.post(`/api/mlops/ab-tests/${test.id}/predict`, { inputs: { island: 'Dream', bill_length_mm: 40 + i } }), 200);
    outcomes.push({ request_id: r.request_id as string, value: i % 2 });
  }
  await expectStatus(client.post(`/api/mlops/ab-tests/${test.id}/outcomes`, { outcomes }), 200);
  return { test_id: test.id as string };
}

/**
 * Two synthgen models on the kept project's data (the disposable project's dataset stays deletable), one for the
 * operations that read and one for the delete; no worker trains them, so they stay `pending` (generate is a 400).
 */
async function seedSynthgen(client: ApiClient, p: SeededProject) {
  const body = { project_id: p.project_id, dataset_version_id: p.dataset_version_ids[0], model_type: 'gaussian_copula' };
  const model = await expectStatus(client.post('/api/synthgen/models', { ...body, name: 'fuzz synth' }), 201);
  const disposable = await expectStatus(client.post('/api/synthgen/models', { ...body, name: 'fuzz synth disposable' }), 201);
  return { model_id: model.id as string, job_id: model.job_id as string, disposable_model_id: disposable.id as string };
}

/**
 * A production deployment of the kept project's model with a studio session on it and one pending scenario, so the
 * studio operations reach more than their 404s. Studio operations alone are given these ids (see
 * schemathesis-config.ts): the deployment routes would deactivate the deployment under them.
 */
async function seedStudio(client: ApiClient, p: SeededProject) {
  const deployment = await expectStatus(client.post(`/api/mlops/projects/${p.project_id}/deployments`, { model_id: p.model_id, name: 'fuzz', stage: 'production' }), 201);
  const session = await expectStatus(client.post('/api/studio/sessions', { project_id: p.project_id, deployment_id: deployment.id, baseline_input: { island: 'Dream', bill_length_mm: 40 } }), 201);
  const scenario = await expectStatus(client.post(`/api/studio/sessions/${session.id}/scenarios`, { name: 'heavier', changes: { body_mass_g: 5000 } }), 201);
  return { deployment_id: deployment.id as string, session_id: session.id as string, scenario_id: scenario.id as string };
}

/**
 * One small experiment (a single GLM) in each project, trained by a worker process that stops once they are done:
 * the run itself has no worker, so what the fuzzer starts stays queued and never takes the CPU from the run.
 */
async function trainModels(stack: TestStack, client: ApiClient, projects: SeededProject[]): Promise<void> {
  const worker = spawnWorkerProcess(stack, ['io', 'cpu']);
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  try {
    for (const p of projects) {
      const exp = await expectStatus(
        client.post('/api/experiments', {
          project_id: p.project_id,
          dataset_version_id: p.dataset_version_ids[0],
          name: 'species',
          target_column: 'species',
          problem_type: 'classification',
          config: { max_models: 1, nfolds: 0, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] },
        }),
        201,
      );
      p.experiment_id = exp.id as string;
    }
    const deadline = Date.now() + 120_000;
    for (const p of projects) {
      for (;;) {
        const st = await expectStatus(client.get(`/api/experiments/${p.experiment_id}`), 200);
        if (st.experiment.status === 'succeeded' && st.best_model_id) {
          p.model_id = st.best_model_id as string;
          break;
        }
        if (['failed', 'canceled'].includes(st.experiment.status) || Date.now() > deadline) throw new Error(`seeding: experiment ${st.experiment.status}: ${st.experiment.error}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    worker.kill('SIGTERM');
    await exited;
  }
}

interface SeededProject {
  project_id: string;
  dataset_id: string;
  dataset_version_ids: string[];
  artifact_id: string;
  experiment_id?: string;
  model_id?: string;
}

/** A project holding a dataset with versions 0 and 1. */
async function seedProject(client: ApiClient, name: string): Promise<SeededProject> {
  const projectId = await createProject(client, name);
  const first = await expectStatus(client.upload('/api/datasets/upload', { project_id: projectId, name: 'penguins', description: 'seed' }, { name: 'penguins.csv', data: CSV }), 201);
  const datasetId = first.dataset_id as string;
  const second = await expectStatus(
    client.upload(`/api/datasets/${datasetId}/versions`, { description: 'second version' }, { name: 'penguins.csv', data: CSV.split('\n').slice(0, 30).join('\n') }),
    201,
  );
  return {
    project_id: projectId,
    dataset_id: datasetId,
    dataset_version_ids: [first.dataset_version_id as string, second.dataset_version_id as string],
    artifact_id: first.artifact_id as string,
  };
}

/**
 * What became of the run's credentials: a run whose key or session was revoked midway tested the rest of the
 * operations only for their 401, which the report shows as an authentication warning, not as a failure.
 */
async function reportCredentials(stack: TestStack, seed: { api_key: string; session_token?: string }): Promise<void> {
  const [key] = await stack.ds.query('SELECT revoked_at FROM api_keys WHERE prefix = $1', [seed.api_key.split('.')[0]]);
  const [session] = await stack.ds.query('SELECT revoked_at FROM auth_sessions WHERE token_hash = $1', [
    createHash('sha256')
      .update(seed.session_token ?? '')
      .digest('hex'),
  ]);
  const [made] = await stack.ds.query(
    'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM projects) AS projects, (SELECT count(*)::int FROM datasets) AS datasets, (SELECT count(*)::int FROM api_keys) AS keys',
  );
  const state = (row: { revoked_at: Date | null } | undefined) => (!row ? 'gone' : row.revoked_at ? `revoked at ${new Date(row.revoked_at).toISOString()}` : 'valid');
  console.log(`[fuzz] at the end: the run's API key ${state(key)}, its session ${state(session)}; rows ${JSON.stringify(made)}`);
}

async function expectStatus(pending: ReturnType<ApiClient['get']>, status: number) {
  const r = await pending;
  if (r.status !== status) throw new Error(`seeding: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

void main();
