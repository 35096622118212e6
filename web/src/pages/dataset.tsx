import { useState } from 'preact/hooks';
import { del, get, qs, upload, type GetBody, type ListItem, type Page } from '../api';
import { BarsChart, ChartView } from '../chart';
import { Link, navigate, useLocation } from '../router';
import { ErrorBox, Field, fmtBytes, fmtDate, fmtNum, Loading, Progress, Section, Select, Table, Tabs, useAction, useAsync, usePaged, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';
import { BuilderTab } from './builder/dataset-tab';

type Version = ListItem<'/api/datasets/{dataset_id}/versions'>;
type Profile = NonNullable<GetBody<'/api/datasets/{dataset_id}/analyze'>['statistics']>;

const TABS: [string, string][] = [
  ['preview', 'Preview'],
  ['quality', 'Quality'],
  ['analyze', 'Analyze'],
  ['versions', 'Versions'],
  ['compare', 'Compare'],
  ['builder', 'Builder'],
];

/** A version's `statistics_status` in words; `failed` shows its error. */
const STATISTICS_WORDS: Record<Version['statistics_status'], string> = {
  ready: 'computed',
  queued: 'queued',
  running: 'computing',
  failed: 'failed',
  canceled: 'canceled',
  none: 'on first analysis',
};

/** Tabs that show one version's data: the version picker stands above them. */
const VERSIONED_TABS = ['preview', 'quality', 'analyze', 'builder'];

/** A percentage for people: one decimal at most, no trailing zeros (57.1%, 100%). */
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${fmtNum(Math.round(v * 10) / 10)}%`);

export function DatasetPage({ id }: { id: string }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'preview';
  // The chosen version lives in the URL (absent: the latest), so a reload or a shared link shows the same data.
  const version = query.get('version') ?? '';
  const d = useAsync(() => get<GetBody<'/api/datasets/{dataset_id}'>>(`/api/datasets/${id}${qs({ version })}`), [id, version]);
  const { error, run } = useAction();
  useTitle(d.data ? `Dataset ${d.data.dataset.name}` : 'Dataset');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const ds = d.data.dataset;
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${ds.project_id}`}>{ds.project_name}</Link> /
      </p>
      <div class="title-row">
        <h1>{ds.name}</h1>
        <div class="row">
          <Link class="button" href={`/app/experiments/new?project=${ds.project_id}&dataset=${ds.id}`}>
            New experiment
          </Link>
          <a class="button secondary" href={`/api/datasets/${ds.id}/download`} download>
            CSV
          </a>
          <ConfirmButton
            confirm={{ question: `Delete the dataset '${ds.name}'?`, consequence: 'All its versions are deleted too.', confirmLabel: 'Delete' }}
            onConfirm={() => void run(() => del(`/api/datasets/${ds.id}`).then(() => navigate(`/app/projects/${ds.project_id}`)))}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <ErrorBox error={error} />
      <p class="muted">
        Latest version {ds.version} · {fmtNum(ds.rows)} rows · {fmtNum(ds.columns)} columns · updated {fmtDate(ds.updated_at)}
      </p>
      <Tabs tabs={TABS} current={tab} base={`/app/datasets/${ds.id}`} keep={version ? qs({ version }).slice(1) : undefined} />
      {VERSIONED_TABS.includes(tab) && <VersionPicker id={ds.id} tab={tab} shown={d.data.preview_version} latest={ds.version} />}
      {tab === 'preview' && (
        <Preview rows={d.data.preview} schema={ds.columns_schema} error={d.data.preview_error ?? undefined} version={d.data.preview_version} latest={d.data.preview_version === ds.version} />
      )}
      {tab === 'quality' && <Quality id={ds.id} version={d.data.preview_version} columns={ds.columns_schema.map((c) => c.name)} target={query.get('target') ?? ''} />}
      {tab === 'analyze' && <Analyze id={ds.id} version={d.data.preview_version} />}
      {tab === 'versions' && <Versions id={ds.id} onChange={d.reload} />}
      {tab === 'compare' && <Compare id={ds.id} latest={ds.version} />}
      {tab === 'builder' && <BuilderTab datasetId={ds.id} projectId={ds.project_id} version={d.data.preview_version} columns={ds.columns_schema.map((c) => c.name)} />}
    </>
  );
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The version whose data the tab shows; choosing one puts it in the URL. */
function VersionPicker({ id, tab, shown, latest }: { id: string; tab: string; shown: number; latest: number }) {
  const versions = useAsync(() => get<Page<Version>>(`/api/datasets/${id}/versions?limit=100`), [id]);
  const nums = versions.data?.items.map((v) => v.version).reverse() ?? [];
  // The shown version is always offered (past the first 100 versions the list does not hold it).
  if (!nums.includes(shown)) nums.unshift(shown);
  return (
    <div class="row filters">
      <Select
        label="Version"
        value={String(shown)}
        options={nums.map((n) => [String(n), n === latest ? `${n} (latest)` : String(n)])}
        onChange={(e) => navigate(`/app/datasets/${id}${qs({ tab, version: Number(e.currentTarget.value) === latest ? '' : e.currentTarget.value })}`)}
      />
      <ErrorBox error={versions.error} />
    </div>
  );
}

function Preview({ rows, schema, error, version, latest }: { rows: Record<string, unknown>[]; schema: { name: string; dtype: string }[]; error?: string; version: number; latest: boolean }) {
  const title = latest ? `First rows of the latest version (version ${version})` : `First rows of version ${version}`;
  return (
    <Section title={title}>
      <ErrorBox error={error} />
      <Table caption={title} rows={rows} columns={schema.map((c) => ({ head: `${c.name} (${c.dtype})`, cell: (r: Record<string, unknown>) => cell(r[c.name]) }))} />
    </Section>
  );
}

type QualityCheck = GetBody<'/api/datasets/{dataset_id}/quality'>['quality']['checks'][number];

/** "5 of 7 checks passed": the checks that need a target and have none are not counted, as in the score. */
const passedOf = (checks: QualityCheck[]) => {
  const computed = checks.filter((c) => !c.needs_target);
  return `${fmtNum(computed.filter((c) => c.passed).length)} of ${fmtNum(computed.length)} checks passed`;
};

const checkResult = (c: QualityCheck) => (c.needs_target ? <span class="muted">needs a target</span> : <span class={c.passed ? 'ok' : 'warn'}>{c.passed ? 'passed' : 'failed'}</span>);

/**
 * A version's quality checks. Checks that depend on a target use the one picked here (kept in the URL), else the
 * latest experiment's on this dataset; without either they say they need one: the service never guesses it.
 */
function Quality({ id, version, columns, target }: { id: string; version: number; columns: string[]; target: string }) {
  const q = useAsync(() => get<GetBody<'/api/datasets/{dataset_id}/quality'>>(`/api/datasets/${id}/quality${qs({ version, target })}`).then((r) => r.quality), [id, version, target]);
  const pickTarget = (t: string) => {
    const u = new URLSearchParams(location.search);
    if (t) u.set('target', t);
    else u.delete('target');
    navigate(`/app/datasets/${id}?${u.toString()}`, true);
  };
  const source = q.data?.target_source;
  return (
    <Section title={`Quality of version ${version}`}>
      <div class="row filters">
        <Select
          label="Target column"
          value={target}
          options={[['', source === 'experiment' && q.data ? `${q.data.target} (latest experiment)` : 'none chosen'], ...columns.map((c): [string, string] => [c, c])]}
          onChange={(e) => pickTarget(e.currentTarget.value)}
        />
      </div>
      <ErrorBox error={q.error} />
      {!q.data ? (
        !q.error && <Loading />
      ) : (
        <>
          <p>
            Overall score: <strong>{pct(q.data.overall_score)}</strong> ({passedOf(q.data.checks)}){q.data.sample_rows ? ` (estimated on ${fmtNum(q.data.sample_rows)} rows)` : ''}.{' '}
            {q.data.target === null
              ? 'No target chosen: checks that depend on one are listed as needing a target and left out of the score.'
              : source === 'experiment'
                ? `Target ${q.data.target}, from the latest experiment${q.data.target_experiment ? ` (${q.data.target_experiment.name})` : ''}.`
                : `Target ${q.data.target}.`}
          </p>
          <Table
            caption="Quality checks"
            rows={q.data.checks}
            columns={[
              { head: 'Check', cell: (c) => c.name },
              { head: 'Result', cell: checkResult },
              { head: 'Details', cell: (c) => c.details },
            ]}
          />
        </>
      )}
    </Section>
  );
}

/** A wide table (the API profiles up to 2,000 columns) would otherwise draw a canvas per column and stall the page. */
const MAX_DISTRIBUTION_CHARTS = 40;

function Analyze({ id, version }: { id: string; version: number }) {
  const a = useAsync(() => get<GetBody<'/api/datasets/{dataset_id}/analyze'>>(`/api/datasets/${id}/analyze${qs({ version })}`), [id, version]);
  if (a.error) return <ErrorBox error={a.error} />;
  if (!a.data) return <Loading what="Analyzing" />;
  if (!a.data.statistics) return <ErrorBox error={a.data.error ?? 'No statistics'} />;
  const p = a.data.statistics;
  const cols = Object.entries(p.columns);
  return (
    <>
      <Section title={`Summary of version ${version}`}>
        <p>
          {fmtNum(p.row_count)} rows · {fmtNum(p.duplicate_rows)} duplicate rows · about {fmtBytes(p.memory_usage)} in memory
        </p>
        <Table
          caption="Column statistics"
          rows={cols}
          columns={[
            { head: 'Column', cell: ([n]) => n },
            { head: 'Type', cell: ([, c]) => c.dtype },
            { head: 'Unique', cell: ([, c]) => fmtNum(c.unique), num: true },
            { head: 'Missing', cell: ([, c]) => pct(c.missing_percent), num: true },
            { head: 'Mean', cell: ([, c]) => (c.type === 'numeric' ? fmtNum(c.mean) : '–'), num: true },
            { head: 'Std', cell: ([, c]) => (c.type === 'numeric' ? fmtNum(c.std) : '–'), num: true },
            { head: 'Min', cell: ([, c]) => (c.type === 'numeric' ? fmtNum(c.min) : '–'), num: true },
            { head: 'Max', cell: ([, c]) => (c.type === 'numeric' ? fmtNum(c.max) : '–'), num: true },
          ]}
        />
      </Section>
      <Section title="Distributions">
        {cols.length > MAX_DISTRIBUTION_CHARTS && (
          <p>
            Charts of the first {MAX_DISTRIBUTION_CHARTS} of {fmtNum(cols.length)} columns; the table above lists them all.
          </p>
        )}
        <div class="charts">
          {cols.slice(0, MAX_DISTRIBUTION_CHARTS).map(([name, c]) =>
            c.type === 'numeric' ? (
              <ChartView
                key={name}
                label={`Histogram of ${name}`}
                summary={`${name}: ${c.histogram.counts.length} bins from ${fmtNum(c.min)} to ${fmtNum(c.max)}, ${c.outlier_count} outliers`}
                height={180}
                config={{
                  type: 'bar',
                  data: {
                    labels: c.histogram.counts.map((_, i) => fmtNum(c.histogram.bin_edges[i], 3)),
                    datasets: [{ label: name, data: c.histogram.counts, backgroundColor: '#1d4ed8', barPercentage: 1, categoryPercentage: 1 }],
                  },
                  options: { plugins: { legend: { display: false } } },
                }}
              />
            ) : (
              <BarsChart
                key={name}
                label={`Most frequent values of ${name}`}
                items={Object.entries(c.top_values)
                  .slice(0, 10)
                  .map(([k, v]) => ({ name: k, value: v }))}
              />
            ),
          )}
        </div>
      </Section>
      <Correlations corr={p.correlations} omitted={p.correlations_omitted} />
    </>
  );
}

/** The Pearson matrix as a table whose cells are shaded by strength (a text table reads out; a heatmap canvas would not). */
function Correlations({ corr, omitted }: { corr: Profile['correlations']; omitted: string[] }) {
  const names = Object.keys(corr);
  if (names.length < 2) return null;
  return (
    <Section title="Correlations">
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Correlation matrix">
        <table class="heat">
          <caption class="sr-only">Pearson correlation between numeric columns</caption>
          <thead>
            <tr>
              <td />
              {names.map((n) => (
                <th key={n} scope="col">
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((a) => (
              <tr key={a}>
                <th scope="row">{a}</th>
                {names.map((b) => {
                  const v = corr[a]?.[b];
                  const level = v === null || v === undefined ? 'na' : `${v < 0 ? 'n' : 'p'}${Math.min(4, Math.floor(Math.abs(v) * 5))}`;
                  return (
                    <td key={b} class={`num heat-${level}`}>
                      {v === null || v === undefined ? '–' : v.toFixed(2)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {omitted.length > 0 && <p class="muted">Left out (past the column cap): {omitted.join(', ')}</p>}
    </Section>
  );
}

function Versions({ id, onChange }: { id: string; onChange: () => void }) {
  const list = usePaged(({ limit, offset }) => get<Page<Version>>(`/api/datasets/${id}/versions${qs({ limit, offset })}`), [id]);
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const { busy, error, run } = useAction();
  return (
    <>
      <Section title="Versions">
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="Versions"
            rows={list.data.items}
            columns={[
              { head: 'Version', cell: (v) => v.version, num: true },
              { head: 'Rows', cell: (v) => fmtNum(v.row_count), num: true },
              { head: 'Columns', cell: (v) => fmtNum(v.column_count), num: true },
              { head: 'Description', cell: (v) => v.description || '–' },
              {
                head: 'Statistics',
                cell: (v) => (v.statistics_status === 'failed' ? <span class="error">failed: {v.statistics_error ?? 'unknown error'}</span> : STATISTICS_WORDS[v.statistics_status]),
              },
              { head: 'By', cell: (v) => v.created_by_name ?? '–' },
              { head: 'Created', cell: (v) => fmtDate(v.created_at) },
              {
                head: 'Files',
                cell: (v) => (
                  <a href={`/api/datasets/${id}/versions/${v.version}/download`} download>
                    CSV
                  </a>
                ),
              },
              {
                head: 'Action',
                cell: (v) =>
                  list.data!.total > 1 ? (
                    <ConfirmButton
                      class="secondary small"
                      aria-label={`Delete version ${v.version}`}
                      confirm={{ question: `Delete version ${v.version} of this dataset?`, consequence: 'Its data and statistics are deleted.', confirmLabel: 'Delete' }}
                      onConfirm={() =>
                        void run(async () => {
                          await del(`/api/datasets/${id}/versions/${v.version}`);
                          list.reload();
                          onChange();
                        })
                      }
                    >
                      Delete
                    </ConfirmButton>
                  ) : (
                    '–'
                  ),
              },
            ]}
          />
        ) : (
          <Loading />
        )}
        {list.pager}
      </Section>
      <Section title="Upload a new version">
        <form
          class="row wrap"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) return;
            const form = new FormData();
            form.set('description', description);
            form.set('file', file);
            setProgress(0);
            void run(async () => {
              try {
                await upload(`/api/datasets/${id}/versions`, form, setProgress);
                list.reload();
                onChange();
              } finally {
                setProgress(null);
              }
            });
          }}
        >
          <label class="field">
            <span>File</span>
            <input type="file" accept=".csv,.tsv,.txt,.parquet" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          <Field label="Description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          <button type="submit" disabled={busy || !file}>
            Upload version
          </button>
        </form>
        {progress !== null && <Progress value={progress} label="Upload progress" />}
      </Section>
    </>
  );
}

type Comparison = GetBody<'/api/datasets/{dataset_id}/compare'>;

function Compare({ id, latest }: { id: string; latest: number }) {
  const versions = useAsync(() => get<Page<Version>>(`/api/datasets/${id}/versions?limit=100`), [id]);
  const nums = versions.data?.items.map((v) => String(v.version)) ?? [];
  const [v1, setV1] = useState(String(Math.max(0, latest - 1)));
  const [v2, setV2] = useState(String(latest));
  const [cmp, setCmp] = useState<Comparison | null>(null);
  const { busy, error, run } = useAction();
  if (versions.data && nums.length < 2) return <p class="muted">Upload a second version to compare.</p>;
  return (
    <Section title="Compare versions">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => setCmp(await get<Comparison>(`/api/datasets/${id}/compare${qs({ v1, v2 })}`)));
        }}
      >
        <Select label="From version" value={v1} options={nums} onChange={(e) => setV1(e.currentTarget.value)} />
        <Select label="To version" value={v2} options={nums} onChange={(e) => setV2(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Compare
        </button>
      </form>
      <ErrorBox error={error ?? versions.error} />
      {cmp && (
        <>
          <p>
            Rows {fmtNum(cmp.summary.v1_rows)} → {fmtNum(cmp.summary.v2_rows)}. Added: {cmp.summary.columns_added.join(', ') || 'none'}. Removed: {cmp.summary.columns_removed.join(', ') || 'none'}.
            Type changes: {cmp.summary.columns_type_changed.map((c) => `${c.column} ${c.v1_dtype}→${c.v2_dtype}`).join(', ') || 'none'}.
          </p>
          <Table
            caption="Per-column shift"
            rows={Object.entries(cmp.column_diffs)}
            columns={[
              { head: 'Column', cell: ([n]) => n },
              { head: 'PSI', cell: ([, c]) => fmtNum(c.psi, 3), num: true },
              { head: 'Shift', cell: ([, c]) => <span class={`shift-${c.shift_level}`}>{c.shift_level}</span> },
              { head: 'Mean shift', cell: ([, c]) => pct(c.mean_shift_pct), num: true },
              { head: 'Missing', cell: ([, c]) => `${fmtNum(c.missing_v1)} → ${fmtNum(c.missing_v2)}` },
            ]}
          />
        </>
      )}
    </Section>
  );
}
