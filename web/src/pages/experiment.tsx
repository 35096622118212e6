import { useEffect, useState } from 'preact/hooks';
import { openReport } from './report';
import { del, get, post, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { ChartView } from '../chart';
import { Link, navigate, useLocation } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Progress, Section, Select, Status, Table, useAction, useAsync, usePoll, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';

type Capabilities = GetBody<'/api/experiments/capabilities'>;
type DatasetItem = ListItem<'/api/datasets'>;

/** Create an experiment: a dataset of the project, its target, the problem type and the AutoML budget and options. */
export function NewExperimentPage() {
  useTitle('New experiment');
  const { query } = useLocation();
  const projectId = query.get('project') ?? '';
  const caps = useAsync(() => get<Capabilities>('/api/experiments/capabilities'), []);
  const datasets = useAsync(() => get<Page<DatasetItem>>(`/api/datasets${qs({ project_id: projectId, limit: 200 })}`), [projectId]);
  const [datasetId, setDatasetId] = useState(query.get('dataset') ?? '');
  const columns = useAsync(() => (datasetId ? get<GetBody<'/api/datasets/{dataset_id}/columns'>>(`/api/datasets/${datasetId}/columns`).then((r) => r.columns) : Promise.resolve([])), [datasetId]);
  const [form, setForm] = useState({ name: '', target_column: '', problem_type: 'classification', use_gpu: false });
  const [config, setConfig] = useState({ max_models: '5', max_runtime_secs: '120', nfolds: '3', sort_metric: 'AUTO', seed: '42', balance_classes: false });
  const [excluded, setExcluded] = useState<string[]>([]);
  // config.ignored_columns: columns no model may use (a leaking column, an identifier the checks missed).
  const [ignored, setIgnored] = useState<string[]>([]);
  const { busy, error, run } = useAction();
  useEffect(() => {
    if (!datasetId && datasets.data?.items[0]) setDatasetId(datasets.data.items[0].id);
  }, [datasets.data]);
  const colList = columns.data ?? [];
  useEffect(() => {
    // Decided on the form as it is when the update applies: the effect runs after paint, and a target picked in
    // between (a quick hand, a test) must not be replaced by the default.
    if (colList.length) setForm((f) => (colList.some((c) => c.name === f.target_column) ? f : { ...f, target_column: colList[colList.length - 1].name }));
  }, [columns.data]);
  if (!projectId) return <ErrorBox error="Open this page from a project (it needs ?project=)." />;
  if (caps.error || datasets.error) return <ErrorBox error={caps.error ?? datasets.error} />;
  if (!caps.data || !datasets.data) return <Loading />;
  const c = caps.data;
  const dataset = datasets.data.items.find((d) => d.id === datasetId);
  // Sort metrics by kind (binary, multiclass, regression); "classification" is decided by the target, so either.
  const kinds = form.problem_type === 'classification' ? ['binary', 'multiclass'] : [form.problem_type];
  const sortMetrics = [...new Set(['AUTO', ...kinds.flatMap((k) => c.sort_metrics[k] ?? [])])];
  const submit = (e: Event) => {
    e.preventDefault();
    if (!dataset) return;
    void run(async () => {
      const r = await post<Answer<'/api/experiments', 'post'>>('/api/experiments', {
        project_id: projectId,
        dataset_version_id: dataset.dataset_version_id,
        name: form.name || `${dataset.name} · ${form.target_column}`,
        target_column: form.target_column,
        problem_type: form.problem_type,
        use_gpu: form.use_gpu,
        config: {
          sort_metric: sortMetrics.includes(config.sort_metric) ? config.sort_metric : 'AUTO',
          max_models: Number(config.max_models),
          max_runtime_secs: Number(config.max_runtime_secs),
          nfolds: Number(config.nfolds),
          seed: Number(config.seed),
          balance_classes: config.balance_classes,
          exclude_algos: excluded,
          ignored_columns: ignored.filter((col) => col !== form.target_column && colList.some((x) => x.name === col)),
        },
      });
      navigate(`/app/experiments/${r.id}`);
    });
  };
  const setC = (k: keyof typeof config) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setConfig({ ...config, [k]: e.currentTarget.value });
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${projectId}?tab=experiments`}>Project</Link> /
      </p>
      <h1>New experiment</h1>
      {datasets.data.items.length === 0 ? (
        <p>
          This project has no dataset yet. <Link href={`/app/projects/${projectId}`}>Upload one first.</Link>
        </p>
      ) : (
        <form onSubmit={submit} class="stack">
          <Section title="Data">
            <div class="grid3">
              <Select
                label="Dataset"
                value={datasetId}
                options={datasets.data.items.map((d) => [d.id, `${d.name} (v${d.version})`] as [string, string])}
                onChange={(e) => setDatasetId(e.currentTarget.value)}
              />
              <Select
                label="Target column"
                value={form.target_column}
                options={colList.map((col) => [col.name, `${col.name} (${col.dtype})`] as [string, string])}
                onChange={(e) => setForm({ ...form, target_column: e.currentTarget.value })}
              />
              <Select label="Problem type" value={form.problem_type} options={c.problem_types} onChange={(e) => setForm({ ...form, problem_type: e.currentTarget.value })} />
              <Field
                label="Experiment name"
                placeholder={dataset ? `${dataset.name} · ${form.target_column}` : ''}
                value={form.name}
                onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
              />
            </div>
            <IgnoredColumnsPicker columns={colList.map((col) => col.name).filter((n) => n !== form.target_column)} value={ignored} onChange={setIgnored} />
          </Section>
          <Section title="Budget and options">
            <div class="grid3">
              <Field label="Max models" type="number" min={1} max={c.limits.max_models_cap} required value={config.max_models} onInput={setC('max_models')} />
              <Field label="Max runtime (seconds)" type="number" min={1} max={c.limits.max_runtime_secs_max} required value={config.max_runtime_secs} onInput={setC('max_runtime_secs')} />
              <Field label="Cross-validation folds" type="number" min={0} max={c.limits.nfolds_max} required value={config.nfolds} onInput={setC('nfolds')} hint="0 uses a holdout split." />
              <Select label="Sort metric" value={sortMetrics.includes(config.sort_metric) ? config.sort_metric : 'AUTO'} options={sortMetrics} onChange={setC('sort_metric')} />
              <Field label="Seed" type="number" value={config.seed} onInput={setC('seed')} />
              <label class="check">
                <input type="checkbox" checked={config.balance_classes} onChange={(e) => setConfig({ ...config, balance_classes: e.currentTarget.checked })} /> Balance classes
              </label>
              <label class="check">
                <input type="checkbox" checked={form.use_gpu} onChange={(e) => setForm({ ...form, use_gpu: e.currentTarget.checked })} /> Use a GPU worker (falls back to CPU)
              </label>
            </div>
            <fieldset class="scopes">
              <legend>Leave out algorithms</legend>
              {c.algorithms.map((a) => (
                <label key={a} class="check">
                  <input type="checkbox" checked={excluded.includes(a)} onChange={() => setExcluded(excluded.includes(a) ? excluded.filter((x) => x !== a) : [...excluded, a])} /> {a}
                </label>
              ))}
            </fieldset>
          </Section>
          <ErrorBox error={error ?? columns.error} />
          <div>
            <button type="submit" disabled={busy || !dataset || !form.target_column}>
              Start training
            </button>
          </div>
        </form>
      )}
    </>
  );
}

/** A multi-select of the columns to leave out of training, as checkboxes (usable by keyboard and at phone width). */
function IgnoredColumnsPicker({ columns, value, onChange }: { columns: string[]; value: string[]; onChange: (v: string[]) => void }) {
  if (!columns.length) return null;
  const chosen = value.filter((c) => columns.includes(c));
  return (
    <fieldset class="scopes" aria-describedby="ignored-hint">
      <legend>Leave out columns</legend>
      <p id="ignored-hint" class="muted">
        Ignored columns are no feature of any model: {chosen.length ? chosen.join(', ') : 'none chosen'}.
      </p>
      {columns.map((c) => (
        <label key={c} class="check">
          <input type="checkbox" name="ignored_columns" value={c} checked={chosen.includes(c)} onChange={() => onChange(chosen.includes(c) ? chosen.filter((x) => x !== c) : [...chosen, c])} /> {c}
        </label>
      ))}
    </fieldset>
  );
}

type ExperimentBody = GetBody<'/api/experiments/{experiment_id}'>['experiment'];
type LeaderRow = GetBody<'/api/experiments/{experiment_id}'>['models'][number];
type StatusBody = GetBody<'/api/experiments/{experiment_id}/status'>;
const DONE = ['succeeded', 'failed', 'canceled'];

/** Metrics worth a leaderboard column, in this order when present. */
const METRIC_ORDER = ['auc', 'logloss', 'aucpr', 'mean_per_class_error', 'accuracy', 'f1', 'rmse', 'mae', 'r2', 'rmsle'];

export function ExperimentPage({ id }: { id: string }) {
  const exp = useAsync(() => get<GetBody<'/api/experiments/{experiment_id}'>>(`/api/experiments/${id}`), [id]);
  const [status, setStatus] = useState<StatusBody | null>(null);
  const { busy, error, run } = useAction();
  const running = status ? !DONE.includes(status.status) : exp.data ? !DONE.includes(exp.data.experiment.status) : false;
  const poll = () =>
    void get<StatusBody>(`/api/experiments/${id}/status`).then(
      (s) => {
        setStatus(s);
        // The leaderboard and the warnings (written by data preparation) are on the experiment: reload as they change.
        const shown = exp.data;
        if (DONE.includes(s.status) || s.progress.models_done + s.progress.ensembles_done !== (shown?.models.length ?? 0) || s.progress.prepared !== shown?.experiment.progress.prepared) exp.reload();
      },
      () => undefined,
    );
  useEffect(poll, [id]);
  usePoll(poll, 1000, running);
  useTitle(exp.data ? `Experiment ${exp.data.experiment.name}` : 'Experiment');
  if (exp.error) return <ErrorBox error={exp.error} />;
  if (!exp.data) return <Loading />;
  const e = exp.data.experiment;
  // Until the first status answer: the experiment's own status and progress (counted from its models, without elapsed time).
  const st = status ?? { status: e.status, progress: { ...e.progress, elapsed_secs: undefined, budget_secs: undefined }, job_id: e.job_id, error: e.error };
  // The model in training, as the training wrote it (the experiment's own progress has no such key before the status answers).
  const currentModel = (st.progress as { current?: unknown }).current;
  const metricKeys = METRIC_ORDER.filter((k) => exp.data!.models.some((m) => typeof m.metrics[k] === 'number'));
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${e.project_id}?tab=experiments`}>{e.project_name}</Link> /
      </p>
      <div class="title-row">
        <h1>{e.name}</h1>
        <div class="row">
          {running && st.job_id && (
            <button type="button" class="danger" disabled={busy} onClick={() => void run(() => post(`/api/jobs/${st.job_id}/cancel`).then(poll))}>
              Cancel
            </button>
          )}
          {!running && (
            <button type="button" class="secondary" disabled={busy} onClick={() => void run(() => openReport(e.project_id, 'experiment', e.id))}>
              Report
            </button>
          )}
          {!running && (
            <a class="button secondary" href={`/api/experiments/${e.id}/notebook`} download>
              Notebook
            </a>
          )}
          {!running && (
            <ConfirmButton
              disabled={busy}
              confirm={{ question: `Delete the experiment '${e.name}'?`, consequence: 'Its models are deleted too.', confirmLabel: 'Delete' }}
              onConfirm={() => void run(() => del(`/api/experiments/${e.id}`).then(() => navigate(`/app/projects/${e.project_id}?tab=experiments`)))}
            >
              Delete
            </ConfirmButton>
          )}
        </div>
      </div>
      <ErrorBox error={error} />
      <p class="muted">
        <Link href={`/app/datasets/${e.dataset_id}`}>{e.dataset_name}</Link> v{e.dataset_version} · target {e.target_column} ({e.problem_kind}) · sort by {e.sort_metric} · budget {e.max_models} models
        / {e.max_runtime_secs} s · created {fmtDate(e.created_at)}
      </p>
      <p class="muted">Ignored columns: {e.ignored_columns.length ? e.ignored_columns.join(', ') : 'none'}</p>
      <LeakageWarnings experiment={e} />
      <Section title="Progress">
        <p aria-live="polite">
          <Status value={st.status} /> {st.progress.summary}
          {running && typeof currentModel === 'string' ? ` · training ${currentModel}` : ''}
          {st.progress.elapsed_secs !== undefined && ` · ${st.progress.elapsed_secs} s of ${st.progress.budget_secs ?? e.max_runtime_secs} s`}
        </p>
        <Progress value={st.progress.percent / 100} label="Training progress" />
        {st.error && <p class="error">{st.error}</p>}
        {st.job_id && (
          <p>
            <Link href={`/app/jobs?focus=${st.job_id}`}>The training job</Link>
          </p>
        )}
      </Section>
      <Section title="Leaderboard">
        <Table
          caption="Leaderboard"
          rows={exp.data.models}
          empty={running ? 'No model finished yet.' : 'No model.'}
          columns={[
            { head: 'Model', cell: (m) => <Link href={`/app/models/${m.id}`}>{m.name}</Link> },
            { head: 'Algorithm', cell: (m) => m.algo },
            ...metricKeys.map((k) => ({ head: k, cell: (m: LeaderRow) => fmtNum(m.metrics[k]), num: true })),
            { head: 'Training (s)', cell: (m) => fmtNum(m.training_time_ms / 1000, 3), num: true },
            { head: 'Best', cell: (m) => (m.is_best ? <span class="badge">best</span> : '') },
          ]}
        />
        {exp.data.best_model_id && (
          <p>
            <Link class="button" href={`/app/models/${exp.data.best_model_id}`}>
              Open the best model
            </Link>
          </p>
        )}
      </Section>
      {!running && exp.data.models.length > 1 && <Explain id={id} />}
      <Logs id={id} running={running} />
    </>
  );
}

/**
 * Leakage found before training, shown above the results they make meaningless, each with a one-click retrain: a new
 * experiment with the same data, target and config, plus that column ignored.
 */
function LeakageWarnings({ experiment: e }: { experiment: ExperimentBody }) {
  const { busy, error, run } = useAction();
  const leaks = e.warnings.filter((w) => w.kind === 'leakage');
  if (!leaks.length) return null;
  const retrainWithout = (column: string) =>
    void run(async () => {
      const r = await post<Answer<'/api/experiments', 'post'>>('/api/experiments', {
        project_id: e.project_id,
        dataset_version_id: e.dataset_version_id,
        name: `${e.name} without ${column}`.slice(0, 200),
        target_column: e.target_column,
        problem_type: e.problem_type,
        use_gpu: e.use_gpu,
        config: { ...e.config, ignored_columns: [...e.ignored_columns, column] },
      });
      navigate(`/app/experiments/${r.id}`);
    });
  return (
    <section class="warning-box" role="alert" aria-labelledby="leakage-title">
      <h2 id="leakage-title">Possible target leakage</h2>
      <p>These columns alone predict {e.target_column} almost perfectly, so the scores below are likely too good to be true.</p>
      <ul>
        {leaks.map((w) => (
          <li key={w.column}>
            <p>
              <strong>{w.column}</strong>: {w.message}
            </p>
            <button type="button" disabled={busy} onClick={() => retrainWithout(w.column)}>
              Retrain without {w.column}
            </button>
          </li>
        ))}
      </ul>
      <ErrorBox error={error} />
    </section>
  );
}

type ExplainBody = GetBody<'/api/experiments/{experiment_id}/explain'>;

/** The Pareto front (metric against training time) and the variable-importance heatmap across models. */
function Explain({ id }: { id: string }) {
  const x = useAsync(() => get<ExplainBody>(`/api/experiments/${id}/explain`), [id]);
  if (x.error) return <ErrorBox error={x.error} />;
  if (!x.data) return <Loading />;
  const { pareto_front, varimp_heatmap, sort_metric } = x.data.explain;
  const hm = varimp_heatmap;
  return (
    <Section title="Model comparison">
      <ChartView
        label={`Pareto front: ${sort_metric} against training time`}
        summary={`Pareto front: ${pareto_front.models.map((m) => `${m.name} ${fmtNum(m.metric)} in ${fmtNum(m.training_time, 3)} s`).join('; ')}`}
        config={{
          type: 'scatter',
          data: {
            datasets: [{ label: sort_metric, data: pareto_front.models.map((m) => ({ x: m.training_time, y: m.metric ?? null })), backgroundColor: '#1d4ed8', showLine: true, borderColor: '#1d4ed8' }],
          },
          options: { scales: { x: { title: { display: true, text: 'training time (s)' } }, y: { title: { display: true, text: sort_metric } } } },
        }}
      />
      {hm.features.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Variable importance by model">
          <table class="heat">
            <caption>Variable importance (scaled) by model</caption>
            <thead>
              <tr>
                <th scope="col">Feature</th>
                {hm.models.map((m) => (
                  <th key={m} scope="col">
                    {m}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {hm.features.map((f, i) => (
                <tr key={f}>
                  <th scope="row">{f}</th>
                  {hm.models.map((m, j) => {
                    const v = hm.matrix[j]?.[i] ?? null;
                    return (
                      <td key={m} class={`num heat-${v === null ? 'na' : `p${Math.min(4, Math.floor(v * 5))}`}`}>
                        {v === null ? '–' : v.toFixed(2)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function Logs({ id, running }: { id: string; running: boolean }) {
  const [engine, setEngine] = useState(false);
  const logs = useAsync(() => get<GetBody<'/api/experiments/{experiment_id}/logs'>>(`/api/experiments/${id}/logs${qs({ include_h2o_logs: engine ? 'true' : undefined })}`), [id, engine]);
  usePoll(logs.reload, 3000, running);
  return (
    <Section
      title="Logs"
      actions={
        <a class="button secondary small" href={`/api/experiments/${id}/logs/download`} download>
          Download
        </a>
      }
    >
      <label class="check">
        <input type="checkbox" checked={engine} onChange={(e) => setEngine(e.currentTarget.checked)} /> Include the engine's detailed events
      </label>
      <ErrorBox error={logs.error} />
      <pre class="logs" tabIndex={0} aria-label="Experiment log">
        {logs.data?.logs.join('\n') ?? ''}
      </pre>
    </Section>
  );
}
