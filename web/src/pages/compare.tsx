import { useState } from 'preact/hooks';
import { get, qs, type GetBody } from '../api';
import { ChartView } from '../chart';
import { PrChart, RocChart, SERIES_COLOURS } from '../curve-chart';
import { largerIsBetter, paramText, splitLabel } from '../model-facts';
import { Link, useLocation } from '../router';
import { ErrorBox, fmtNum, Loading, Section, Select, useAsync, useTitle } from '../ui';

type Comparison = GetBody<'/api/projects/{project_id}/models/compare'>;
type Compared = Comparison['models'][number];

/** A model's name with its experiment's, so two `GBM_1` of different experiments stay apart. */
function modelLabel(m: Compared): string {
  return `${m.name} (${m.experiment_name ?? 'experiment'})`;
}

/**
 * Two or more models of a project side by side: metrics, parameters (those that differ marked), overlaid ROC and
 * precision-recall curves, and a scatter of a metric against a parameter. The URL (`?models=a,b,c`) carries the
 * models, so the view can be shared.
 */
export function ComparePage({ projectId }: { projectId: string }) {
  const { query } = useLocation();
  const ids = (query.get('models') ?? '').split(',').filter(Boolean);
  const c = useAsync(() => get<Comparison>(`/api/projects/${projectId}/models/compare${qs({ model_ids: ids.join(',') })}`), [projectId, ids.join(',')]);
  useTitle(`Compare ${ids.length} models`);
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${projectId}?tab=models`}>Models</Link> /
      </p>
      <h1>Compare {ids.length} models</h1>
      <ErrorBox error={c.error} />
      {!c.data && !c.error && <Loading />}
      {c.data && <Comparisons c={c.data} />}
    </>
  );
}

function Comparisons({ c }: { c: Comparison }) {
  const binary = c.models.filter((m) => m.roc_curve);
  return (
    <>
      <MetricTable c={c} />
      {binary.length > 0 && (
        <div class="grid2">
          <Section title="ROC curves">
            <RocChart label="ROC curves of the compared models" series={binary.map((m) => ({ label: modelLabel(m), ...m.roc_curve! }))} />
          </Section>
          <Section title="Precision-recall curves">
            <PrChart label="Precision-recall curves of the compared models" series={binary.filter((m) => m.pr_curve).map((m) => ({ label: modelLabel(m), ...m.pr_curve! }))} />
            {binary.some((m) => !m.pr_curve) && (
              <p class="muted">
                Not recorded for{' '}
                {binary
                  .filter((m) => !m.pr_curve)
                  .map(modelLabel)
                  .join(', ')}{' '}
                (trained before held-out scores were kept).
              </p>
            )}
          </Section>
        </div>
      )}
      <MetricScatter c={c} />
      <ParameterTable c={c} />
    </>
  );
}

/** Metrics in rows, models in columns; the best value of each row in bold. */
function MetricTable({ c }: { c: Comparison }) {
  const best = (metric: string): number | undefined => {
    const vals = c.models.map((m) => m.metrics[metric]).filter((v): v is number => typeof v === 'number');
    if (vals.length < 2 || metric === 'threshold') return undefined;
    return largerIsBetter(metric) ? Math.max(...vals) : Math.min(...vals);
  };
  return (
    <Section title="Metrics">
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Metrics side by side">
        <table>
          <caption class="sr-only">Metrics of each compared model; the best of each row is marked</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {c.models.map((m) => (
                <th key={m.id} scope="col" class="num">
                  <Link href={`/app/models/${m.id}`}>{m.name}</Link>
                  <br />
                  <span class="muted">{m.experiment_name}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">algorithm</th>
              {c.models.map((m) => (
                <td key={m.id} class="num">
                  {m.algo}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">measured on</th>
              {c.models.map((m) => (
                <td key={m.id} class="num">
                  {splitLabel(m.metric_split)}
                </td>
              ))}
            </tr>
            {c.metric_names.map((name) => {
              const top = best(name);
              return (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  {c.models.map((m) => {
                    const v = m.metrics[name];
                    const isBest = top !== undefined && v === top;
                    return (
                      <td key={m.id} class={isBest ? 'num best' : 'num'}>
                        {fmtNum(v)}
                        {isBest && <span class="sr-only"> (best)</span>}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

/** Parameters in rows, models in columns; rows whose values differ are marked (and may be shown alone). */
function ParameterTable({ c }: { c: Comparison }) {
  const [onlyDiffering, setOnlyDiffering] = useState(false);
  const differing = new Set(c.differing_parameters);
  const names = onlyDiffering ? c.parameter_names.filter((n) => differing.has(n)) : c.parameter_names;
  const actual = (m: Compared, name: string) => (m.parameters as Record<string, { actual?: unknown } | undefined>)[name]?.actual;
  return (
    <Section
      title="Parameters"
      actions={
        <label class="check">
          <input type="checkbox" checked={onlyDiffering} onChange={(e) => setOnlyDiffering(e.currentTarget.checked)} />
          Only those that differ ({c.differing_parameters.length})
        </label>
      }
    >
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Parameters side by side">
        <table>
          <caption class="sr-only">Training parameters of each compared model; rows that differ are marked</caption>
          <thead>
            <tr>
              <th scope="col">Parameter</th>
              {c.models.map((m) => (
                <th key={m.id} scope="col">
                  {m.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr key={name} class={differing.has(name) ? 'differs' : undefined}>
                <th scope="row">
                  {name}
                  {differing.has(name) && <span class="badge changed">differs</span>}
                </th>
                {c.models.map((m) => (
                  <td key={m.id}>
                    <span class="clip">{paramText(actual(m, name))}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

/** A chosen metric against a chosen numeric parameter, one point per model (MLflow's scatter of a run comparison). */
function MetricScatter({ c }: { c: Comparison }) {
  const numericIn = (n: string) => c.models.filter((m) => typeof (m.parameters as Record<string, { actual?: unknown }>)[n]?.actual === 'number').length;
  // Parameters most of the models have first (models of different algorithms share few), then by name.
  const numericParams = c.parameter_names.filter((n) => numericIn(n) > 0).sort((a, b) => numericIn(b) - numericIn(a) || a.localeCompare(b));
  const [metric, setMetric] = useState(
    c.models[0]?.metric_name?.toLowerCase() && c.metric_names.includes(c.models[0].metric_name.toLowerCase()) ? c.models[0].metric_name.toLowerCase() : (c.metric_names[0] ?? ''),
  );
  // By default the first shared parameter whose numeric values differ between models: one a scatter says something about.
  const valuesOf = (n: string) => new Set(c.models.map((m) => (m.parameters as Record<string, { actual?: unknown }>)[n]?.actual).filter((v) => typeof v === 'number'));
  const [param, setParam] = useState(numericParams.find((n) => valuesOf(n).size > 1) ?? numericParams[0] ?? '');
  if (!metric || !param) return null;
  const points = c.models
    .map((m, i) => ({ m, i, x: (m.parameters as Record<string, { actual?: unknown }>)[param]?.actual, y: m.metrics[metric] }))
    .filter((p): p is { m: Compared; i: number; x: number; y: number } => typeof p.x === 'number' && typeof p.y === 'number');
  const left = c.models.length - points.length;
  return (
    <Section title="Metric against parameter">
      <div class="row wrap filters">
        <Select label="Metric" value={metric} options={c.metric_names} onChange={(e) => setMetric(e.currentTarget.value)} />
        <Select label="Parameter" value={param} options={numericParams} onChange={(e) => setParam(e.currentTarget.value)} />
      </div>
      <ChartView
        label={`${metric} against ${param}`}
        summary={`${metric} against ${param}: ${points.map((p) => `${modelLabel(p.m)} ${fmtNum(p.x)} → ${fmtNum(p.y)}`).join('; ')}${left ? `; ${left} model(s) without a numeric ${param}` : ''}`}
        config={{
          type: 'scatter',
          data: {
            datasets: points.map((p) => ({
              label: modelLabel(p.m),
              data: [{ x: p.x, y: p.y }],
              backgroundColor: SERIES_COLOURS[p.i % SERIES_COLOURS.length],
              borderColor: SERIES_COLOURS[p.i % SERIES_COLOURS.length],
              pointRadius: 6,
            })),
          },
          options: { scales: { x: { type: 'linear', title: { display: true, text: param } }, y: { title: { display: true, text: metric } } } },
        }}
      />
    </Section>
  );
}
