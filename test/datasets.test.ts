import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DatasetVersions } from '../services/dataset-versions';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { expectRangedDownload } from './support/ranges';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';
import { scratchDir } from '../platform/scratch';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;

beforeAll(async () => {
  stack = await startStack({ workers: [], env: { MAX_DATASET_UPLOAD_BYTES: String(1_500_000) } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Data');
});
afterAll(async () => stack?.stop());

async function upload(name: string, file: { name: string; data: Buffer | string }, client: ApiClient = owner.client, pid = projectId) {
  return client.upload('/api/datasets/upload', { project_id: pid, name, description: `${name} data` }, file);
}

async function counts() {
  const [{ d }] = await stack.ds.query('SELECT count(*)::int AS d FROM datasets');
  const [{ a }] = await stack.ds.query('SELECT count(*)::int AS a FROM artifacts');
  const files = fs.readdirSync(stack.config.artifactDir, { recursive: true }).filter((f) => fs.statSync(path.join(stack.config.artifactDir, String(f))).isFile());
  // The API runs in this process: its uploads go to this process's scratch folder.
  const tmp = scratchDir(path.join(stack.config.dataDir, 'tmp'), 'uploads');
  const tmpFiles = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  return { d, a, files: files.length, tmp: tmpFiles.length };
}

describe('dataset upload', () => {
  it('uploads a CSV with a header and answers the quality report', async () => {
    const r = await upload('titanic', datasetFile('titanic.csv'));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: r.body.dataset_id, dataset_id: expect.any(String), dataset_version_id: expect.any(String), artifact_id: expect.any(String), row_count: 891 });
    expect(typeof r.body.quality.overall_score).toBe('number');
    expect(r.body.quality.issues.length).toBeGreaterThanOrEqual(6);
    // A check that depends on a target (none is named at upload) also says needs_target.
    for (const i of r.body.quality.issues) expect(i).toEqual({ name: expect.any(String), passed: expect.any(Boolean), details: expect.any(String), ...(i.needs_target ? { needs_target: true } : {}) });
    const missing = r.body.quality.issues.find((i: { name: string }) => /missing/i.test(i.name));
    expect(missing.passed).toBe(false);
    expect(missing.details).toMatch(/deck/);

    const g = await owner.client.get(`/api/datasets/${r.body.id}`);
    expect(g.status).toBe(200);
    expect(g.body.dataset).toMatchObject({
      id: r.body.id,
      name: 'titanic',
      project_id: projectId,
      project_name: 'Data',
      dataset_version_id: r.body.dataset_version_id,
      artifact_id: r.body.artifact_id,
      rows: 891,
      columns: 15,
    });
    expect(g.body.preview).toHaveLength(20);
    expect(g.body.preview[0]).toMatchObject({ survived: 0, sex: 'male', age: 22 });
    expect(g.body.preview_error).toBeNull();
    const cols = await owner.client.get(`/api/datasets/${r.body.id}/columns`);
    const dtype = Object.fromEntries(cols.body.columns.map((c: { name: string; dtype: string }) => [c.name, c.dtype]));
    expect(dtype).toMatchObject({ survived: 'int64', age: 'float64', sex: 'category', adult_male: 'bool' });
    for (const t of Object.values(dtype)) expect(['int64', 'float64', 'object', 'bool', 'datetime64', 'category']).toContain(t);
  });

  it('generates column names for a headerless file and reads datetimes', async () => {
    const pima = await upload('pima', datasetFile('pima-indians-diabetes.csv'));
    expect(pima.status).toBe(201);
    const cols = (await owner.client.get(`/api/datasets/${pima.body.id}/columns`)).body.columns;
    expect(cols).toHaveLength(9);
    expect(cols[0].name).toBe('column_1');
    expect(pima.body.row_count).toBe(768);
    const taxis = await upload('taxis', datasetFile('taxis.csv'));
    const tcols = (await owner.client.get(`/api/datasets/${taxis.body.id}/columns`)).body.columns;
    expect(tcols.find((c: { name: string }) => c.name === 'pickup').dtype).toBe('datetime64');
  });

  it('detects a semicolon delimiter and Latin-1 encoding', async () => {
    const text = 'ville;population;note\nZürich;415367;très bien\nMontréal;1762949;été\nSão Paulo;11451245;ação\n';
    const r = await upload('latin1', { name: 'villes.csv', data: Buffer.from(text, 'latin1') });
    expect(r.status).toBe(201);
    const g = await owner.client.get(`/api/datasets/${r.body.id}`);
    expect(g.body.preview.map((x: { ville: string }) => x.ville)).toEqual(['Zürich', 'Montréal', 'São Paulo']);
    expect(g.body.preview[0].population).toBe(415367);
  });

  it('keeps Parquet column types', async () => {
    const data = fs.readFileSync(path.join(__dirname, '..', '..', 'engine', 'data', 'testdata', 'pyarrow_types.parquet'));
    const r = await upload('parquet', { name: 'anything.bin', data });
    expect(r.status).toBe(201);
    const cols = (await owner.client.get(`/api/datasets/${r.body.id}/columns`)).body.columns;
    const types = new Set(cols.map((c: { dtype: string }) => c.dtype));
    expect(types.has('int64')).toBe(true);
    expect(types.has('float64')).toBe(true);
  });

  it('refuses empty, binary and malformed uploads with 422 and leaves nothing behind', async () => {
    const before = await counts();
    const empty = await upload('empty', { name: 'empty.csv', data: '' });
    expect(empty.status).toBe(422);
    const binary = await upload('binary', { name: 'image.csv', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3, 0, 255, 254, 0, 7]) });
    expect(binary.status).toBe(422);
    expect(binary.body).toEqual({ detail: 'Unsupported file type' });
    const ragged = await upload('ragged', { name: 'ragged.csv', data: 'a,b,c\n1,2,3\n4,5\n6,7,8,9,10\n' });
    expect(ragged.status).toBe(422);
    expect(typeof ragged.body.detail).toBe('string');
    expect(await counts()).toEqual(before);
  });

  it('validates the multipart fields', async () => {
    const noFile = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'x' });
    expect(noFile.status).toBe(422);
    expect(noFile.body.detail[0].loc).toEqual(['body', 'file']);
    const noName = await owner.client.upload('/api/datasets/upload', { project_id: projectId }, { name: 'a.csv', data: 'a\n1\n' });
    expect(noName.body.detail[0].loc).toEqual(['body', 'name']);
    const badProject = await owner.client.upload('/api/datasets/upload', { project_id: 'nope', name: 'x' }, { name: 'a.csv', data: 'a\n1\n' });
    expect(badProject.status).toBe(422);
    const json = await owner.client.post('/api/datasets/upload', { project_id: projectId, name: 'x' });
    expect(json.status).toBe(415);
  });

  it('refuses an oversized upload before reading it, with nothing left behind', async () => {
    const before = await counts();
    const r = await upload('diamonds', datasetFile('diamonds.csv'));
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/exceeds the upload limit of 1500000 bytes/);
    expect(await counts()).toEqual(before);
  });

  it('cuts off a chunked upload that grows past the limit while streaming', async () => {
    const before = await counts();
    const { status, connection } = await rawMultipart({ totalFileBytes: 3_000_000, chunked: true });
    expect(status).toBe(413);
    // The rest of the body is never read, so the connection is not kept for another request.
    expect(connection).toBe('close');
    expect(await counts()).toEqual(before);
  });

  it('answers a declared oversized body with 413 and Connection: close while the client still sends it', async () => {
    const { status, connection } = await rawMultipart({ totalFileBytes: 3_000_000 });
    expect(status).toBe(413);
    expect(connection).toBe('close');
  });

  it('a truncated upload leaves no dataset, version or file', async () => {
    const before = await counts();
    await rawMultipart({ totalFileBytes: 500_000, abortAfterBytes: 200_000 });
    // The server learns of the cut connection and removes its temporary file after the client has gone: on a busy
    // machine that takes longer than a fixed pause.
    let now = await counts();
    await eventually(async () => JSON.stringify((now = await counts())) === JSON.stringify(before), 10_000, 100).catch(() => undefined);
    expect(now).toEqual(before);
  });

  it('uploads the 54k-row diamonds file when the limit allows it', async () => {
    // A background profile is due from 1000 rows, but no worker takes it: analyze computes the profile itself.
    const big = await startStack({ workers: [], env: { PROFILE_IN_BACKGROUND_MIN_ROWS: '1000' } });
    try {
      const u = await signUp(big.baseUrl, big.mail);
      const pid = await createProject(u.client, 'Big');
      const r = await u.client.upload('/api/datasets/upload', { project_id: pid, name: 'diamonds' }, datasetFile('diamonds.csv'));
      expect(r.status).toBe(201);
      expect(r.body.row_count).toBe(53940);
      const jobs = await big.ds.query(`SELECT status, entity_id FROM jobs WHERE kind = 'dataset_profile'`);
      expect(jobs).toEqual([{ status: 'queued', entity_id: r.body.dataset_version_id }]);
      // The exact profile is not part of the upload: the first analyze computes it and keeps it.
      const storedStats = async () => (await big.ds.query('SELECT statistics FROM dataset_versions WHERE id = $1', [r.body.dataset_version_id]))[0].statistics;
      expect(await storedStats()).toBeNull();
      // Two callers at once share the one computation.
      const [stats, together] = await Promise.all([u.client.get(`/api/datasets/${r.body.id}/analyze`), u.client.get(`/api/datasets/${r.body.id}/analyze`)]);
      expect(together.body).toEqual(stats.body);
      expect(stats.body.statistics.row_count).toBe(53940);
      expect(stats.body.statistics.columns.price.mean).toBeCloseTo(3932.799722, 5);
      expect(stats.body.statistics.columns.cut.type).toBe('categorical');
      expect((await storedStats()).row_count).toBe(53940);
      expect((await u.client.get(`/api/datasets/${r.body.id}/analyze`)).body).toEqual(stats.body);
    } finally {
      await big.stop();
    }
  });
});

describe('background profile', () => {
  it('profiles a large new version in a dataset_profile job, which the first analyze then answers from', async () => {
    const withWorker = await startStack({ workers: ['cpu'], env: { PROFILE_IN_BACKGROUND_MIN_ROWS: '1000' } });
    try {
      const u = await signUp(withWorker.baseUrl, withWorker.mail);
      const pid = await createProject(u.client, 'Profiled');
      const small = await u.client.upload('/api/datasets/upload', { project_id: pid, name: 'penguins' }, datasetFile('penguins.csv'));
      const r = await u.client.upload('/api/datasets/upload', { project_id: pid, name: 'diamonds' }, datasetFile('diamonds.csv'));
      expect([small.status, r.status]).toEqual([201, 201]);
      // Only the version past the threshold gets a job.
      const jobRows = async () => withWorker.ds.query(`SELECT id, status, entity_id, result FROM jobs WHERE kind = 'dataset_profile'`);
      let [job] = await jobRows();
      expect(job.entity_id).toBe(r.body.dataset_version_id);
      for (const until = Date.now() + 90_000; job.status !== 'succeeded' && Date.now() < until; [job] = await jobRows()) {
        expect(['queued', 'running']).toContain(job.status);
        await new Promise((res) => setTimeout(res, 250));
      }
      expect(job.status).toBe('succeeded');
      expect(job.result).toEqual({ version_id: r.body.dataset_version_id, row_count: 53940, computed: true });
      expect((await jobRows()).length).toBe(1);
      const [{ statistics }] = await withWorker.ds.query('SELECT statistics FROM dataset_versions WHERE id = $1', [r.body.dataset_version_id]);
      expect(statistics.row_count).toBe(53940);
      const answered = await u.client.get(`/api/datasets/${r.body.id}/analyze`);
      expect(answered.body).toEqual({ statistics, error: null });
      const asJob = await u.client.get(`/api/jobs/${job.id}`);
      expect(asJob.status).toBe(200);
    } finally {
      await withWorker.stop();
    }
  });

  it('has nothing to do for a version already profiled or deleted since', async () => {
    const r = await upload('profiled', datasetFile('penguins.csv'));
    expect(r.status).toBe(201);
    const versionId = r.body.dataset_version_id;
    expect(await new DatasetVersions(stack.ds, stack.store).profile(versionId)).toEqual({ version_id: versionId, row_count: 344, computed: true });
    expect(await new DatasetVersions(stack.ds, stack.store).profile(versionId)).toEqual({ version_id: versionId, row_count: 344, computed: false, skipped: 'already profiled' });
    const answered = await owner.client.get(`/api/datasets/${r.body.id}/analyze`);
    expect(answered.body.statistics.row_count).toBe(344);
    expect((await owner.client.del(`/api/datasets/${r.body.id}`)).status).toBe(200);
    expect(await new DatasetVersions(stack.ds, stack.store).profile(versionId)).toEqual({ version_id: versionId, row_count: 0, computed: false, skipped: 'the dataset version was deleted' });
  });
});

describe('multipart parsing', () => {
  // The parser's own cases (chunk boundaries, malformed bodies, header grammar) are unit tests: api/multipart.test.ts.
  it('stores a CRLF file with delimiter-like text intact', async () => {
    const csv = 'id,note\r\n1,"line one\r\n--not a boundary"\r\n2,--\r\n3,\r\n';
    const r = await upload('crlf', { name: 'crlf.csv', data: csv });
    expect(r.status).toBe(201);
    expect(r.body.row_count).toBe(3);
    const rows = (await owner.client.get(`/api/artifacts/${r.body.artifact_id}/preview`)).body.rows;
    expect(rows.map((x: { note: string | null }) => x.note)).toEqual(['line one\r\n--not a boundary', '--', null]);
  });

  it('answers 400 to a body that ends before its closing delimiter, leaving nothing behind', async () => {
    const before = await counts();
    const b = '----cut';
    const raw = Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="name"\r\n\r\ncut\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na,b\n1,2\n`,
    );
    const r = await owner.client.post('/api/datasets/upload', undefined, { headers: { 'content-type': `multipart/form-data; boundary=${b}` }, rawBody: raw });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: 'Upload was incomplete or malformed' });
    expect(await counts()).toEqual(before);
  });
});

describe('versions, statistics and downloads', () => {
  let datasetId: string;
  beforeAll(async () => {
    datasetId = (await upload('penguins', datasetFile('penguins.csv'))).body.id;
  });

  it('adds versions, lists them in order and compares two with PSI', async () => {
    const v1text = datasetFile('penguins.csv').data.toString().split('\n').slice(0, 120).join('\n') + '\n';
    const nov = await owner.client.upload(`/api/datasets/${datasetId}/versions`, {}, { name: 'p.csv', data: v1text });
    expect(nov.status).toBe(422);
    const r = await owner.client.upload(`/api/datasets/${datasetId}/versions`, { description: 'first 119 rows' }, { name: 'p.csv', data: v1text });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ dataset_version_id: expect.any(String), version: 1, row_count: 119, column_count: 7 });
    const list = await owner.client.get(`/api/datasets/${datasetId}/versions`);
    expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([0, 1]);
    expect(list.body.items[1]).toMatchObject({ description: 'first 119 rows', created_by_name: 'Test User', row_count: 119 });
    expect((await owner.client.get(`/api/datasets/${datasetId}/versions?limit=101`)).status).toBe(422);

    const cmp = await owner.client.get(`/api/datasets/${datasetId}/compare?v1=0&v2=1`);
    expect(cmp.status).toBe(200);
    expect(cmp.body.summary).toMatchObject({ v1: 0, v2: 1, v1_rows: 344, v2_rows: 119, rows_diff: -225, columns_added: [], columns_removed: [] });
    const bill = cmp.body.column_diffs.bill_length_mm;
    expect(bill.psi).toBeGreaterThan(0);
    expect(['low', 'moderate', 'high']).toContain(bill.shift_level);
    expect((await owner.client.get(`/api/datasets/${datasetId}/compare?v1=0&v2=9`)).body).toEqual({ detail: 'Dataset version not found' });
    expect((await owner.client.get(`/api/datasets/${datasetId}/compare?v1=0`)).status).toBe(422);

    const dv = await owner.client.get(`/api/dataset-versions/${r.body.dataset_version_id}`);
    expect(dv.body).toMatchObject({ id: r.body.dataset_version_id, dataset_id: datasetId, version: 1, row_count: 119, column_count: 7 });
    const s1 = await owner.client.get(`/api/dataset-versions/${r.body.dataset_version_id}/sample?n=5&seed=7`);
    const s2 = await owner.client.get(`/api/dataset-versions/${r.body.dataset_version_id}/sample?n=5&seed=7`);
    expect(s1.body.rows).toHaveLength(5);
    expect(s1.body.rows).toEqual(s2.body.rows);

    // The dataset now points at the latest version.
    const g = await owner.client.get(`/api/datasets/${datasetId}`);
    expect(g.body.dataset.dataset_version_id).toBe(r.body.dataset_version_id);
    expect(g.body.dataset.rows).toBe(119);
  });

  it('downloads the latest or a given version as CSV or XLSX', async () => {
    const csv = await owner.client.get(`/api/datasets/${datasetId}/download`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(String(csv.body).trim().split('\n')).toHaveLength(120);
    const v0 = await owner.client.get(`/api/datasets/${datasetId}/versions/0/download`);
    expect(String(v0.body).trim().split('\n')).toHaveLength(345);
    const xlsx = await owner.client.get(`/api/datasets/${datasetId}/download?format=xlsx`);
    expect(xlsx.headers.get('content-type')).toMatch(/spreadsheetml/);
    expect(xlsx.raw!.subarray(0, 2).toString()).toBe('PK');
    expect((await owner.client.get(`/api/datasets/${datasetId}/download?format=pdf`)).status).toBe(422);
    expect((await owner.client.get(`/api/datasets/${datasetId}/versions/7/download`)).status).toBe(404);
  });

  it("analyzes the latest version with the spec's statistics", async () => {
    const r = await owner.client.get(`/api/datasets/${datasetId}/analyze`);
    expect(r.status).toBe(200);
    expect(r.body.error).toBeNull();
    const s = r.body.statistics;
    expect(s.row_count).toBe(119);
    const bill = s.columns.bill_length_mm;
    for (const k of ['type', 'unique', 'missing', 'missing_percent', 'min', 'max', 'mean', 'std', 'percentiles', 'skewness', 'kurtosis', 'iqr', 'outlier_count', 'histogram'])
      expect(bill).toHaveProperty(k);
    expect(bill.histogram.counts.reduce((a: number, b: number) => a + b, 0)).toBe(119 - bill.missing);
    expect(s.columns.species).toMatchObject({ type: 'categorical', top_values: expect.any(Object) });
    expect(typeof s.duplicate_rows).toBe('number');
    expect(typeof s.memory_usage).toBe('number');
    expect(s.correlations.bill_length_mm.bill_length_mm).toBeCloseTo(1, 10);
  });

  it('reports quality and an empty lineage; the project policy changes the thresholds', async () => {
    const q = await owner.client.get(`/api/datasets/${datasetId}/quality`);
    expect(q.body.quality.checks.length).toBeGreaterThanOrEqual(6);
    expect(q.body.quality.sample_rows).toBeNull(); // a small table: every check read all of it
    expect((await owner.client.get(`/api/datasets/${datasetId}/lineage`)).body).toEqual({ experiments: [], models: [], deployments: [] });

    const policy = await owner.client.get(`/api/datasets/projects/${projectId}/quality-policy`);
    expect(policy.body.policy.max_missing_percent).toBe(20);
    const put = await owner.client.put(`/api/datasets/projects/${projectId}/quality-policy`, { max_missing_percent: 90 });
    expect(put.body.policy.max_missing_percent).toBe(90);
    expect((await owner.client.put(`/api/datasets/projects/${projectId}/quality-policy`, { max_missing_percent: 'lots' })).status).toBe(422);
    expect((await owner.client.put(`/api/datasets/projects/${projectId}/quality-policy`, { unknown_key: 1 })).status).toBe(422);
    const t = await upload('titanic-lenient', datasetFile('titanic.csv'));
    expect(t.body.quality.issues.find((i: { name: string }) => /missing/i.test(i.name)).passed).toBe(true);
  });

  it('deletes a version (not the only one) and then the whole dataset with its files', async () => {
    const before = await counts();
    expect((await owner.client.del(`/api/datasets/${datasetId}/versions/1`)).body).toEqual({ ok: true });
    expect((await owner.client.del(`/api/datasets/${datasetId}/versions/0`)).status).toBe(409);
    const after = await counts();
    expect(after.files).toBe(before.files - 1);
    expect((await owner.client.del(`/api/datasets/${datasetId}`)).body).toEqual({ ok: true });
    expect((await owner.client.get(`/api/datasets/${datasetId}`)).body).toEqual({ detail: 'Dataset not found' });
    expect((await counts()).files).toBe(before.files - 2);
  });
});

describe('listing and access', () => {
  it('lists with project filter, search, every sort field and pagination', async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const p1 = await createProject(u.client, 'Alpha');
    const p2 = await createProject(u.client, 'Beta');
    await upload('wine', datasetFile('winequality-red.csv'), u.client, p1);
    await upload('banknotes', datasetFile('banknote_authentication.csv'), u.client, p2);
    await upload('mpg', datasetFile('mpg.csv'), u.client, p2);
    const all = await u.client.get('/api/datasets?sort_field=name&sort_direction=asc');
    expect(all.body.items.map((d: { name: string }) => d.name)).toEqual(['banknotes', 'mpg', 'wine']);
    expect((await u.client.get(`/api/datasets?project_id=${p2}`)).body.total).toBe(2);
    expect((await u.client.get('/api/datasets?search=WIN')).body.items.map((d: { name: string }) => d.name)).toEqual(['wine']);
    expect((await u.client.get('/api/datasets?sort_field=rows&sort_direction=desc')).body.items[0].name).toBe('wine');
    expect((await u.client.get('/api/datasets?sort_field=columns&sort_direction=desc')).body.items[0].name).toBe('wine');
    expect((await u.client.get('/api/datasets?sort_field=project_name&sort_direction=asc')).body.items[0].project_name).toBe('Alpha');
    const page = await u.client.get('/api/datasets?sort_field=name&sort_direction=asc&limit=1&offset=1');
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.items[0].name).toBe('mpg');
    expect((await u.client.get('/api/datasets?sort_field=secret')).status).toBe(422);
    expect((await u.client.get('/api/datasets/count')).body).toEqual({ count: 3 });
    expect((await u.client.get(`/api/datasets/count?project_id=${p1}`)).body).toEqual({ count: 1 });
    expect((await u.client.get(`/api/projects/${p2}`)).body.project.dataset_count).toBe(2);
    const timeline = await u.client.get(`/api/projects/${p2}/timeline`);
    expect(timeline.body.events.map((e: { type: string; name: string }) => `${e.type}:${e.name}`).sort()).toEqual(['dataset:banknotes', 'dataset:mpg']);
    expect(timeline.body.events[0]).toMatchObject({ rows: expect.any(Number), columns: expect.any(Number), timestamp: expect.any(String) });
  });

  it("hides other users' datasets and enforces roles", async () => {
    const stranger = await signUp(stack.baseUrl, stack.mail);
    const viewer = await signUp(stack.baseUrl, stack.mail);
    await addMember(owner.client, viewer, projectId, 'viewer');
    const id = (await upload('private', { name: 'p.csv', data: 'a,b\n1,2\n3,4\n' })).body.id;
    const [{ dataset_version_id: vid }] = await stack.ds.query('SELECT id AS dataset_version_id FROM dataset_versions WHERE dataset_id = $1', [id]);
    for (const p of [
      `/api/datasets/${id}`,
      `/api/datasets/${id}/columns`,
      `/api/datasets/${id}/download`,
      `/api/datasets/${id}/analyze`,
      `/api/datasets/${id}/quality`,
      `/api/datasets/${id}/lineage`,
      `/api/datasets/${id}/versions`,
      `/api/datasets/${id}/compare?v1=0&v2=0`,
      `/api/dataset-versions/${vid}`,
      `/api/dataset-versions/${vid}/sample`,
    ]) {
      const r = await stranger.client.get(p);
      expect([p, r.status]).toEqual([p, 404]);
    }
    expect((await stranger.client.del(`/api/datasets/${id}`)).status).toBe(404);
    expect((await stranger.client.upload(`/api/datasets/${id}/versions`, { description: 'x' }, { name: 'a.csv', data: 'a,b\n1,2\n' })).status).toBe(404);
    expect((await upload('intrude', { name: 'a.csv', data: 'a\n1\n' }, stranger.client)).body).toEqual({ detail: 'Project not found' });
    expect((await stranger.client.get(`/api/datasets?project_id=${projectId}`)).body.total).toBe(0);

    expect((await viewer.client.get(`/api/datasets/${id}`)).status).toBe(200);
    expect((await viewer.client.del(`/api/datasets/${id}`)).status).toBe(403);
    expect((await upload('by-viewer', { name: 'a.csv', data: 'a\n1\n' }, viewer.client)).status).toBe(403);
    expect((await viewer.client.put(`/api/datasets/projects/${projectId}/quality-policy`, {})).status).toBe(403);
    expect((await owner.client.get('/api/datasets/not-a-uuid')).status).toBe(422);
  });

  it('downloads a byte range of an artifact (206), the whole file for no or several ranges, 416 past the end', async () => {
    const r = await upload('ranged', { name: 'r.csv', data: 'a,b\n1,x\n2,y\n' });
    await expectRangedDownload(owner.client, `/api/artifacts/${r.body.artifact_id}/download`);
  });

  it('previews a dataset artifact', async () => {
    const r = await upload('preview', { name: 'p.csv', data: 'a,b\n1,x\n2,y\n' });
    const p = await owner.client.get(`/api/artifacts/${r.body.artifact_id}/preview`);
    expect(p.status).toBe(200);
    expect(p.body.rows).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ]);
    const stranger = await signUp(stack.baseUrl, stack.mail);
    expect((await stranger.client.get(`/api/artifacts/${r.body.artifact_id}/preview`)).status).toBe(404);
    expect((await stranger.client.get(`/api/artifacts/${r.body.artifact_id}/download`)).status).toBe(404);
  });
});

/**
 * Sends a multipart upload by hand: chunked (no Content-Length) so only the streaming limit
 * can stop it, or cut off after `abortAfterBytes` like a dropped connection.
 */
function rawMultipart(o: { totalFileBytes: number; chunked?: boolean; abortAfterBytes?: number }): Promise<{ status: number | null; connection?: string }> {
  const boundary = '----mlsvc' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nraw\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(stack.baseUrl);
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': owner.client.cookies.get('csrf_token')!,
    };
    if (!o.chunked) headers['content-length'] = String(head.length + o.totalFileBytes + tail.length);
    const req = http.request({ host: url.hostname, port: url.port, path: '/api/datasets/upload', method: 'POST', headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? null, connection: res.headers.connection });
    });
    req.on('error', () => resolve({ status: null }));
    req.write(head);
    const line = Buffer.from('1234567,abcdefgh\n');
    let sent = 0;
    const pump = () => {
      while (sent < o.totalFileBytes) {
        if (o.abortAfterBytes !== undefined && sent >= o.abortAfterBytes) {
          req.destroy();
          setTimeout(() => resolve({ status: null }), 200);
          return;
        }
        sent += line.length;
        if (!req.write(line)) return req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}
