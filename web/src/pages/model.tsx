import { useState } from 'preact/hooks';
import { openReport } from './report';
import { get, post, type Answer, type GetBody } from '../api';
import { BarsChart, ChartView } from '../chart';
import { FeatureFields, textRow, typedRow } from '../features';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, useTitle } from '../ui';

type Model = GetBody<'/api/models/{model_id}'>['model'];
type Detail = GetBody<'/api/models/{model_id}'>;
type Explain = GetBody<'/api/models/{model_id}/explain'>['explain'];

export function ModelPage({ id }: { id: string }) {
  const d = useAsync(() => get<Detail>(`/api/models/${id}`), [id]);
  const x = useAsync(() => get<GetBody<'/api/models/{model_id}/explain'>>(`/api/models/${id}/explain`).then((r) => r.explain), [id]);
  useTitle(d.data ? `Model ${d.data.model.name}` : 'Model');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const m = d.data.model;
  const scalars = Object.entries(m.metrics).filter(([, v]) => typeof v === 'number') as [string, number][];
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${m.project_id}?tab=models`}>{m.project_name ?? 'Project'}</Link> /{' '}
        <Link href={`/app/experiments/${m.experiment_id}`}>{m.experiment_name ?? 'Experiment'}</Link> /
      </p>
      <div class="title-row">
        <h1>{m.name}</h1>
        <div class="row">
          {d.data.artifact_links.map((a) => (
            <a key={a.artifact_id} class="button secondary small" href={`/api/artifacts/${a.artifact_id}/download`} download>
              {a.label.endsWith('ONNX') ? 'ONNX' : 'Model JSON'}
            </a>
          ))}
          <a class="button secondary small" href={`/api/experiments/${m.experiment_id}/notebook`} download>
            Notebook
          </a>
        </div>
      </div>
      <p class="muted">
        {m.algo} · {[m.is_best && 'best of its experiment', m.is_production && 'in production', m.is_staging && 'in staging'].filter(Boolean).join(' · ') || 'not deployed'} · trained in{' '}
        {fmtNum(m.training_time_ms / 1000, 3)} s · {m.predict_time_per_row_ms !== null ? `${fmtNum(m.predict_time_per_row_ms, 3)} ms a row · ` : ''}
        {fmtDate(m.created_at)}
      </p>
      <div class="grid2">
        <Section title="Metrics">
          <Table
            caption="Metrics"
            rows={scalars}
            columns={[
              { head: 'Metric', cell: ([k]) => k },
              { head: 'Value', cell: ([, v]) => fmtNum(v), num: true },
            ]}
          />
        </Section>
        <PredictForm model={m} schema={d.data.input_schema} />
      </div>
      <ErrorBox error={x.error} />
      {x.data && <Explanations x={x.data} />}
      <Deploy model={m} deployments={d.data.deployments} />
    </>
  );
}

function Explanations({ x }: { x: Explain }) {
  return (
    <div class="grid2">
      {x.variable_importance.length > 0 && (
        <Section title="Variable importance">
          <BarsChart label="Scaled variable importance" items={x.variable_importance.slice(0, 20).map((v) => ({ name: v.variable, value: v.scaled_importance }))} />
        </Section>
      )}
      {x.shap_summary && x.shap_summary.length > 0 && (
        <Section title="SHAP summary">
          <BarsChart label="Mean absolute SHAP contribution" items={x.shap_summary.slice(0, 20).map((v) => ({ name: v.feature, value: v.mean_abs_contribution }))} />
        </Section>
      )}
      {x.confusion_matrix && (
        <Section title="Confusion matrix">
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Confusion matrix">
            <table>
              <caption class="sr-only">Confusion matrix: rows actual class, columns predicted class</caption>
              <thead>
                <tr>
                  <td />
                  {x.confusion_matrix.labels.map((l) => (
                    <th key={l} scope="col">
                      predicted {l}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {x.confusion_matrix.matrix.map((row, i) => (
                  <tr key={i}>
                    <th scope="row">actual {x.confusion_matrix!.labels[i]}</th>
                    {row.map((v, j) => (
                      <td key={j} class={`num ${i === j ? 'diag' : ''}`}>
                        {fmtNum(v)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      )}
      {x.roc_curve && (
        <Section title="ROC curve">
          <ChartView
            label="ROC curve: true positive rate against false positive rate"
            config={{
              type: 'line',
              data: {
                datasets: [
                  { label: 'ROC', data: thin(x.roc_curve.fpr, x.roc_curve.tpr), borderColor: '#1d4ed8', pointRadius: 0 },
                  {
                    label: 'chance',
                    data: [
                      { x: 0, y: 0 },
                      { x: 1, y: 1 },
                    ],
                    borderColor: '#6b7280',
                    borderDash: [4, 4],
                    pointRadius: 0,
                  },
                ],
              },
              options: {
                parsing: false,
                scales: { x: { type: 'linear', min: 0, max: 1, title: { display: true, text: 'false positive rate' } }, y: { min: 0, max: 1, title: { display: true, text: 'true positive rate' } } },
              },
            }}
          />
        </Section>
      )}
    </div>
  );
}

/** At most 400 points of a curve (a ROC on many rows has one per distinct score). */
function thin(xs: number[], ys: number[]): { x: number; y: number }[] {
  const step = Math.max(1, Math.ceil(xs.length / 400));
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < xs.length; i += step) out.push({ x: xs[i], y: ys[i] });
  if (xs.length) out.push({ x: xs[xs.length - 1], y: ys[ys.length - 1] });
  return out;
}

type PredictOut = Answer<'/api/models/{model_id}/predict', 'post'>;

/** A form built from the model's input schema; one row, with TreeSHAP contributions where the model has them. */
function PredictForm({ model, schema }: { model: Model; schema: { name: string; dtype: string }[] }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [out, setOut] = useState<PredictOut | null>(null);
  const { busy, error, run } = useAction();
  const fillSample = () =>
    run(async () => {
      const e = await get<GetBody<'/api/experiments/{experiment_id}'>>(`/api/experiments/${model.experiment_id}`);
      const s = await get<GetBody<'/api/dataset-versions/{dataset_version_id}/sample'>>(`/api/dataset-versions/${e.experiment.dataset_version_id}/sample?n=1&seed=${Math.floor(Math.random() * 1e6)}`);
      const row = s.rows[0] ?? {};
      setValues(textRow(schema, row));
    });
  const submit = (e: Event) => {
    e.preventDefault();
    const inputs = typedRow(schema, values);
    void run(async () => setOut(await post<PredictOut>(`/api/models/${model.id}/predict`, { inputs, options: { include_contributions: model.algo !== 'StackedEnsemble' } })));
  };
  const p = out?.predictions[0];
  const contributions = out?.contributions?.[0]?.filter((c) => c.feature !== 'BiasTerm') ?? [];
  return (
    <Section
      title="Predict"
      actions={
        <button type="button" class="secondary small" onClick={() => void fillSample()}>
          Fill with a sample row
        </button>
      }
    >
      <form class="stack" onSubmit={submit}>
        <FeatureFields schema={schema} values={values} onChange={setValues} />
        <ErrorBox error={error} />
        <div>
          <button type="submit" disabled={busy}>
            Predict
          </button>
        </div>
      </form>
      {p && (
        <div class="result" role="status">
          <p>
            Prediction: <strong data-testid="prediction">{String(p.prediction)}</strong>
          </p>
          {p.probabilities && (
            <p class="muted">
              {Object.entries(p.probabilities)
                .map(([k, v]) => `P(${k}) = ${fmtNum(v, 3)}`)
                .join(' · ')}
            </p>
          )}
        </div>
      )}
      {contributions.length > 0 && (
        <BarsChart
          label="Contribution of each input to this prediction"
          items={[...contributions]
            .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
            .slice(0, 15)
            .map((c) => ({ name: c.feature, value: c.value }))}
        />
      )}
    </Section>
  );
}

function Deploy({ model, deployments }: { model: Model; deployments: Detail['deployments'] }) {
  const [name, setName] = useState(`${model.algo.toLowerCase()}-${model.id.slice(0, 6)}`);
  const [stage, setStage] = useState('staging');
  const { busy, error, run } = useAction();
  return (
    <Section title="Deployments">
      <Table
        caption="Deployments of this model"
        rows={deployments}
        empty="Not deployed."
        columns={[
          { head: 'Name', cell: (d) => <Link href={`/app/deployments/${d.id}`}>{d.name}</Link> },
          { head: 'Stage', cell: (d) => <Status value={d.stage} /> },
          { head: 'Active', cell: (d) => (d.is_active ? 'yes' : 'no') },
        ]}
      />
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await post<Answer<'/api/mlops/projects/{project_id}/deployments', 'post'>>(`/api/mlops/projects/${model.project_id}/deployments`, { model_id: model.id, name, stage });
            navigate(`/app/deployments/${r.id}`);
          });
        }}
      >
        <Field label="Deployment name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Select label="Stage" value={stage} options={['staging', 'production']} onChange={(e) => setStage(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Deploy
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(() => openReport(model.project_id, 'model', model.id))}>
          Model report
        </button>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}
