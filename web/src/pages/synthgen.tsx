import { useState } from 'preact/hooks';
import { openReport } from './report';
import { del, get, post, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { BarsChart, ChartView } from '../chart';
import { DatasetVersionPicker, type DatasetVersionChoice } from '../pickers';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Progress, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';

type SynthModel = ListItem<'/api/synthgen/models'>;
type JobSummary = GetBody<'/api/synthgen/models/{model_id}'>['jobs'][number];
type Quality = NonNullable<SynthJob['quality']>;
type PrivacyResult = NonNullable<SynthJob['privacy']>;
type SynthJob = GetBody<'/api/synthgen/jobs/{job_id}'>;

const OPEN = ['pending', 'running'];
const NEURAL = ['ctgan', 'copulagan', 'tvae'];
const GAN = ['ctgan', 'copulagan'];
/** The spec's defaults (README, SynthGen: options per type). */
const DEFAULTS = { epochs: '300', batch_size: '500', embedding_dim: '128', generator_dim: '256, 256', discriminator_dim: '256, 256', pac: '10', seed: '' };

const pct = (v: number | null | undefined) => (typeof v === 'number' ? `${fmtNum(v * 100, 3)}%` : '–');

/** The project's SynthGen tab: its models, a new model on a dataset version, and the generation jobs. */
export function SynthgenTab({ projectId }: { projectId: string }) {
  const models = usePaged(({ limit, offset }) => get<Page<SynthModel>>(`/api/synthgen/models${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const jobs = usePaged(({ limit, offset }) => get<Page<SynthJob>>(`/api/synthgen/jobs${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  return (
    <>
      <NewSynthModel projectId={projectId} />
      <Section title="Synthetic data models">
        <ErrorBox error={models.error} />
        {models.data ? (
          <Table
            caption="Synthetic data models"
            rows={models.data.items}
            empty="No model yet: train one above."
            columns={[
              { head: 'Model', cell: (m) => <Link href={`/app/synthgen/models/${m.id}`}>{m.name}</Link> },
              { head: 'Type', cell: (m) => m.model_type },
              { head: 'Status', cell: (m) => <Status value={m.status} /> },
              { head: 'Trained on', cell: (m) => `${m.dataset_name} v${m.dataset_version}` },
              { head: 'Created', cell: (m) => fmtDate(m.created_at) },
            ]}
          />
        ) : (
          !models.error && <Loading />
        )}
        {models.pager}
      </Section>
      <Section title="Synthgen jobs">
        <ErrorBox error={jobs.error} />
        {jobs.data ? <JobsTable jobs={jobs.data.items} /> : !jobs.error && <Loading />}
        {jobs.pager}
      </Section>
    </>
  );
}

/** A model's jobs (summaries) or the project's (full jobs, with their model's name). */
type JobRow = JobSummary & Partial<Pick<SynthJob, 'model_name' | 'rows_generated'>>;

function JobsTable({ jobs }: { jobs: JobRow[] }) {
  return (
    <Table
      caption="Synthgen jobs"
      rows={jobs}
      empty="No job yet."
      columns={[
        { head: 'Job', cell: (j) => <Link href={`/app/synthgen/jobs/${j.id}`}>{`${j.job_type === 'train' ? 'Training' : 'Generation'} · ${fmtDate(j.created_at)}`}</Link> },
        ...(jobs.some((j) => j.model_name) ? [{ head: 'Model', cell: (j: JobRow) => j.model_name ?? '–' }] : []),
        { head: 'Status', cell: (j) => <Status value={j.status} /> },
        { head: 'Error', cell: (j) => j.error ?? '–' },
      ]}
    />
  );
}

/** Numbers of a layer list typed as "256, 256". */
function layers(text: string): number[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
}

function NewSynthModel({ projectId }: { projectId: string }) {
  const types = useAsync(() => get<GetBody<'/api/synthgen/model-types'>>('/api/synthgen/model-types'), []);
  const [choice, setChoice] = useState<DatasetVersionChoice>({ datasetId: '', versionId: '' });
  const [name, setName] = useState('');
  const [modelType, setModelType] = useState('ctgan');
  const [config, setConfig] = useState(DEFAULTS);
  const [useGpu, setUseGpu] = useState(false);
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof DEFAULTS) => (e: { currentTarget: HTMLInputElement }) => setConfig({ ...config, [k]: e.currentTarget.value });
  const neural = NEURAL.includes(modelType);
  const gan = GAN.includes(modelType);
  const description = types.data?.model_types.find((t) => t.id === modelType)?.description;
  const submit = (e: Event) => {
    e.preventDefault();
    // Only the options of the chosen type go out: the API refuses an option the type does not have.
    const c: Record<string, unknown> = {};
    if (neural) Object.assign(c, { epochs: Number(config.epochs), batch_size: Number(config.batch_size), embedding_dim: Number(config.embedding_dim) });
    if (gan) Object.assign(c, { generator_dim: layers(config.generator_dim), discriminator_dim: layers(config.discriminator_dim), pac: Number(config.pac) });
    if (config.seed !== '') c.seed = Number(config.seed);
    void run(async () => {
      const r = await post<Answer<'/api/synthgen/models', 'post'>>('/api/synthgen/models', {
        project_id: projectId,
        dataset_version_id: choice.versionId,
        name: name || `${modelType} model`,
        model_type: modelType,
        config: c,
        use_gpu: neural && useGpu,
      });
      navigate(`/app/synthgen/models/${r.id}`);
    });
  };
  return (
    <Section title="Train a synthetic data model">
      <form class="stack" onSubmit={submit}>
        <div class="grid3">
          <DatasetVersionPicker projectId={projectId} value={choice} onChange={setChoice} />
          <Field label="Model name" placeholder={`${modelType} model`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <Select label="Model type" value={modelType} options={(types.data?.model_types ?? []).map((t) => [t.id, t.name] as [string, string])} onChange={(e) => setModelType(e.currentTarget.value)} />
        </div>
        {description && <p class="muted">{description}</p>}
        <fieldset class="scopes">
          <legend>Options of {modelType}</legend>
          <div class="grid3">
            {neural && <Field label="Epochs" type="number" min={1} max={1000} required value={config.epochs} onInput={set('epochs')} />}
            {neural && <Field label="Batch size" type="number" min={2} max={10000} required value={config.batch_size} onInput={set('batch_size')} />}
            {neural && <Field label="Embedding dimension" type="number" min={1} max={1024} required value={config.embedding_dim} onInput={set('embedding_dim')} />}
            {gan && <Field label="Generator layers" required value={config.generator_dim} onInput={set('generator_dim')} hint="Units per layer, comma separated." />}
            {gan && <Field label="Discriminator layers" required value={config.discriminator_dim} onInput={set('discriminator_dim')} hint="Units per layer, comma separated." />}
            {gan && <Field label="Pac" type="number" min={1} max={100} required value={config.pac} onInput={set('pac')} hint="Must divide the batch size." />}
            <Field label="Seed" type="number" min={0} value={config.seed} onInput={set('seed')} hint="Empty: a random start." />
            {neural && (
              <label class="check">
                <input type="checkbox" checked={useGpu} onChange={(e) => setUseGpu(e.currentTarget.checked)} /> Use a GPU worker (falls back to CPU)
              </label>
            )}
          </div>
        </fieldset>
        <ErrorBox error={error ?? types.error} />
        <div>
          <button type="submit" disabled={busy || !choice.versionId}>
            Train model
          </button>
        </div>
      </form>
    </Section>
  );
}

/** A model: training progress from its job (cancel), what it learned, generation, its jobs. */
export function SynthModelPage({ id }: { id: string }) {
  const d = useAsync(() => get<GetBody<'/api/synthgen/models/{model_id}'>>(`/api/synthgen/models/${id}`), [id]);
  const model = d.data?.model;
  const training = model?.status === 'pending';
  const train = useAsync(() => (model?.train_job_id ? get<SynthJob>(`/api/synthgen/jobs/${model.train_job_id}`) : Promise.resolve(null)), [model?.train_job_id, model?.status]);
  const { busy, error, run } = useAction();
  usePoll(d.reload, 1000, training);
  usePoll(train.reload, 1000, training);
  useTitle(model ? `Synthetic data model ${model.name}` : 'Synthetic data model');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!model) return <Loading />;
  const t = train.data;
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${model.project_id}?tab=synthgen`}>{model.project_name}</Link> /
      </p>
      <div class="title-row">
        <h1>{model.name}</h1>
        <div class="row">
          {training && model.train_job_id && (
            <button type="button" class="danger" disabled={busy} onClick={() => void run(() => post(`/api/jobs/${model.train_job_id}/cancel`).then(d.reload))}>
              Cancel training
            </button>
          )}
          <ConfirmButton
            disabled={busy}
            confirm={{ question: `Delete the synthetic-data model '${model.name}'?`, consequence: 'Its jobs and generated files are deleted too.', confirmLabel: 'Delete' }}
            onConfirm={() => void run(() => del(`/api/synthgen/models/${model.id}`).then(() => navigate(`/app/projects/${model.project_id}?tab=synthgen`)))}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <ErrorBox error={error} />
      <p class="muted">
        {model.model_type} on {model.dataset_name} v{model.dataset_version} · options <code>{JSON.stringify(model.config)}</code> · created {fmtDate(model.created_at)}
      </p>
      <Section title="Training">
        <p aria-live="polite">
          <Status value={model.status} />
          {t?.progress_message ? ` · ${t.progress_message}` : ''}
        </p>
        {training && <Progress value={(t?.progress ?? 0) / 100} label="Training progress" />}
        {model.error && <p class="error">{model.error}</p>}
        {model.status === 'ready' && (
          <p>
            Fitted on {fmtNum(model.training_rows)} rows ({fmtNum(model.holdout_rows)} held out for the privacy check) in {fmtNum(model.training_secs, 3)} s.
          </p>
        )}
        {model.columns && (
          <Table
            caption="Columns the model learned"
            rows={model.columns}
            columns={[
              { head: 'Column', cell: (c) => c.name },
              { head: 'Kind', cell: (c) => `${c.kind}${c.integer ? ' (whole numbers)' : ''}` },
              {
                head: 'Range',
                cell: (c) =>
                  c.min === null ? '–' : c.kind === 'datetime' ? `${fmtDate(new Date(c.min).toISOString())} – ${fmtDate(new Date(c.max!).toISOString())}` : `${fmtNum(c.min)} – ${fmtNum(c.max)}`,
              },
              { head: 'Missing', cell: (c) => pct(c.missingRate), num: true },
            ]}
          />
        )}
      </Section>
      {model.status === 'ready' && <Generate model={model} />}
      <Section title="Jobs">
        <JobsTable jobs={d.data!.jobs} />
      </Section>
    </>
  );
}

function Generate({ model }: { model: SynthModel }) {
  const [numRows, setNumRows] = useState('1000');
  const [seed, setSeed] = useState('');
  const [conditions, setConditions] = useState<{ column: string; value: string }[]>([]);
  const { busy, error, run } = useAction();
  const columns = model.columns ?? [];
  const typed = (column: string, value: string): string | number =>
    columns.find((c) => c.name === column)?.kind === 'numeric' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
  return (
    <Section title="Generate rows">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await post<Answer<'/api/synthgen/models/{model_id}/generate', 'post'>>(`/api/synthgen/models/${model.id}/generate`, {
              num_rows: Number(numRows),
              ...(seed !== '' ? { seed: Number(seed) } : {}),
              conditions: Object.fromEntries(conditions.filter((c) => c.column).map((c) => [c.column, typed(c.column, c.value)])),
            });
            navigate(`/app/synthgen/jobs/${r.job_id}`);
          });
        }}
      >
        <div class="grid3">
          <Field label="Rows" type="number" min={1} required value={numRows} onInput={(e) => setNumRows(e.currentTarget.value)} />
          <Field label="Generation seed" type="number" min={0} value={seed} onInput={(e) => setSeed(e.currentTarget.value)} hint="The same seed gives the same rows." />
        </div>
        <fieldset class="scopes">
          <legend>Conditions (every row holds these values)</legend>
          {conditions.map((c, i) => (
            <div class="row wrap" key={i}>
              <Select
                label={`Condition ${i + 1} column`}
                value={c.column}
                options={columns.map((col) => col.name)}
                onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, column: e.currentTarget.value } : x)))}
              />
              <Field label={`Condition ${i + 1} value`} required value={c.value} onInput={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, value: e.currentTarget.value } : x)))} />
              <button type="button" class="secondary small" onClick={() => setConditions(conditions.filter((_, j) => j !== i))}>
                Remove condition {i + 1}
              </button>
            </div>
          ))}
          <button type="button" class="secondary small" disabled={columns.length === 0} onClick={() => setConditions([...conditions, { column: columns[0]?.name ?? '', value: '' }])}>
            Add a condition
          </button>
        </fieldset>
        <ErrorBox error={error} />
        <div>
          <button type="submit" disabled={busy}>
            Generate
          </button>
        </div>
      </form>
    </Section>
  );
}

/** A train or generate job: progress, and for a generation its files, quality report and privacy check. */
export function SynthJobPage({ id }: { id: string }) {
  const j = useAsync(() => get<SynthJob>(`/api/synthgen/jobs/${id}`), [id]);
  const job = j.data;
  const open = !!job && OPEN.includes(job.status);
  const { busy, error, run } = useAction();
  usePoll(j.reload, 1000, open);
  useTitle(job ? `${job.job_type === 'train' ? 'Training' : 'Generation'} with ${job.model_name}` : 'Synthgen job');
  if (j.error) return <ErrorBox error={j.error} />;
  if (!job) return <Loading />;
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${job.project_id}?tab=synthgen`}>{job.project_name}</Link> / <Link href={`/app/synthgen/models/${job.model_id}`}>{job.model_name}</Link> /
      </p>
      <div class="title-row">
        <h1>
          {job.job_type === 'train' ? 'Training' : 'Generation'} with {job.model_name}
        </h1>
        <div class="row">
          {open && (
            <button type="button" class="danger" disabled={busy} onClick={() => void run(() => post(`/api/jobs/${job.id}/cancel`).then(j.reload))}>
              Cancel
            </button>
          )}
          {job.download_url && (
            <a class="button" href={job.download_url} download>
              CSV
            </a>
          )}
          {job.download_url && job.parquet_artifact_id && (
            <a class="button secondary" href={`${job.download_url}?format=parquet`} download>
              Parquet
            </a>
          )}
          {job.job_type === 'generate' && job.status === 'completed' && (
            <button type="button" class="secondary" disabled={busy} onClick={() => void run(() => openReport(job.project_id, 'synthgen', job.id))}>
              Synthgen report
            </button>
          )}
        </div>
      </div>
      <ErrorBox error={error} />
      <Section title="Status">
        <p aria-live="polite">
          <Status value={job.status} />
          {job.progress_message ? ` · ${job.progress_message}` : ''}
          {job.rows_generated !== null ? ` · ${fmtNum(job.rows_generated)} rows` : ''}
          {job.config.seed !== undefined ? ` · seed ${job.config.seed}` : ''}
        </p>
        {open && <Progress value={job.progress / 100} label="Job progress" />}
        {job.error && <p class="error">{job.error}</p>}
        {job.config.conditions && Object.keys(job.config.conditions).length > 0 && <p>Conditions: {JSON.stringify(job.config.conditions)}</p>}
      </Section>
      {job.quality && <QualityView q={job.quality} />}
      {job.privacy && <PrivacyView p={job.privacy} />}
    </>
  );
}

function QualityView({ q }: { q: Quality }) {
  const shapes = q.column_shapes.columns.filter((c) => c.score !== null);
  const pairs = [...q.column_pair_trends.pairs].sort((a, b) => (a.score ?? 2) - (b.score ?? 2));
  return (
    <Section title="Quality">
      <p>
        Overall score <strong data-testid="quality-overall">{pct(q.overall_score)}</strong> · column shapes {pct(q.column_shapes.score)} · column pair trends {pct(q.column_pair_trends.score)}
      </p>
      <p class="muted">
        {fmtNum(q.synthetic_rows ?? null)} synthetic rows against {q.reference ?? 'the training rows'} (SDMetrics' definitions; 100% is indistinguishable).
      </p>
      {shapes.length > 0 && <BarsChart label="Column shape score (KS or TV complement)" items={shapes.map((c) => ({ name: c.column, value: c.score! }))} />}
      <div class="grid2">
        <Table
          caption="Column shapes"
          rows={q.column_shapes.columns}
          columns={[
            { head: 'Column', cell: (c) => c.column },
            { head: 'Metric', cell: (c) => c.metric },
            { head: 'Score', cell: (c) => pct(c.score), num: true },
          ]}
        />
        <Table
          caption="Column pair trends, lowest first"
          rows={pairs.slice(0, 50)}
          empty="No column pair."
          columns={[
            { head: 'Columns', cell: (p) => p.columns.join(' × ') },
            { head: 'Metric', cell: (p) => p.metric },
            { head: 'Score', cell: (p) => pct(p.score), num: true },
            { head: 'Counts', cell: (p) => (p.meets_threshold ? 'yes' : 'no') },
          ]}
        />
      </div>
      {q.column_pair_trends.pairs_evaluated < q.column_pair_trends.pairs_total && (
        <p class="muted">
          {q.column_pair_trends.pairs_evaluated} of {q.column_pair_trends.pairs_total} pairs scored.
        </p>
      )}
      <div class="charts">
        {(q.distributions ?? []).slice(0, 6).map((d) => (
          <ChartView
            key={d.column}
            label={`${d.column}: real and synthetic shares`}
            summary={`${d.column}: real and synthetic shares over ${d.labels.length} ${d.kind === 'categorical' ? 'levels' : 'bins'}`}
            config={{
              type: 'bar',
              data: {
                labels: d.labels.map((l) => (typeof l === 'number' ? (d.kind === 'datetime' ? new Date(l).toISOString().slice(0, 10) : fmtNum(l, 3)) : l)),
                datasets: [
                  { label: 'real', data: d.real, backgroundColor: '#1d4ed8' },
                  { label: 'synthetic', data: d.synthetic, backgroundColor: '#c2410c' },
                ],
              },
            }}
          />
        ))}
      </div>
    </Section>
  );
}

function PrivacyView({ p }: { p: PrivacyResult }) {
  if (p.skipped || p.copied_rows_share === undefined) {
    return (
      <Section title="Privacy check">
        <p>{typeof p.skipped === 'string' ? p.skipped : 'Skipped: the training data had too few rows to hold some out (the check needs at least 50).'}</p>
      </Section>
    );
  }
  const closer = p.median_dcr_synthetic! < p.median_dcr_holdout!;
  return (
    <Section title="Privacy check">
      <dl class="facts">
        <dt>Rows copied from the training data</dt>
        <dd>{pct(p.copied_rows_share)}</dd>
        <dt>Median distance to the closest training row, synthetic rows</dt>
        <dd>{fmtNum(p.median_dcr_synthetic, 3)}</dd>
        <dt>The same for held-out real rows</dt>
        <dd>{fmtNum(p.median_dcr_holdout, 3)}</dd>
        <dt>Rows compared</dt>
        <dd>{fmtNum(p.rows_compared ?? null)}</dd>
      </dl>
      <p>
        {/* The synthgen report's verdict, in the same words. */}
        {closer
          ? 'Synthetic rows sit closer to the training rows than unseen real rows do: the model may reproduce training rows.'
          : 'Synthetic rows sit at least as far from the training rows as unseen real rows do: no sign of memorized rows.'}
      </p>
    </Section>
  );
}
