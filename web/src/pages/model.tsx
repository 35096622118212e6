import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { openReport } from './report';
import { get, post, type Answer, type GetBody } from '../api';
import { BarsChart } from '../chart';
import { PrChart, RocChart } from '../curve-chart';
import { isDefault, paramText, splitLabel, splitSentence } from '../model-facts';
import { FeatureFields, textRow, typedRow } from '../features';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, useTitle } from '../ui';

type Model = GetBody<'/api/models/{model_id}'>['model'];
type Detail = GetBody<'/api/models/{model_id}'>;
type Explain = GetBody<'/api/models/{model_id}/explain'>['explain'];

export function ModelPage({ id }: { id: string }) {
  const d = useAsync(() => get<Detail>(`/api/models/${id}`), [id]);
  const x = useAsync(() => get<GetBody<'/api/models/{model_id}/explain'>>(`/api/models/${id}/explain`).then((r) => r.explain), [id]);
  const params = useAsync(() => get<GetBody<'/api/models/{model_id}/parameters'>>(`/api/models/${id}/parameters`).then((r) => r.parameters as Parameters), [id]);
  useTitle(d.data ? `Model ${d.data.model.name}` : 'Model');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const m = d.data.model;
  const scalars = Object.entries(m.metrics).filter(([, v]) => typeof v === 'number') as [string, number][];
  const split = ((m.metrics.metric_context ?? null) as { split?: string } | null)?.split;
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
          <p class="muted" data-testid="metric-source">
            {splitSentence(split)}
          </p>
          <Table
            caption="Metrics"
            rows={scalars}
            columns={[
              { head: 'Metric', cell: ([k]) => k },
              { head: 'Value', cell: ([, v]) => fmtNum(v), num: true },
              { head: 'Measured on', cell: () => splitLabel(split) },
            ]}
          />
        </Section>
        <PredictForm model={m} schema={d.data.input_schema} />
      </div>
      <ErrorBox error={x.error} />
      {x.data && <Explanations x={x.data} operatingThreshold={typeof m.metrics.threshold === 'number' ? m.metrics.threshold : null} />}
      <ErrorBox error={params.error} />
      {params.data && <Hyperparameters parameters={params.data} />}
      <Deploy model={m} deployments={d.data.deployments} />
    </>
  );
}

function Explanations({ x, operatingThreshold }: { x: Explain; operatingThreshold: number | null }) {
  return (
    <>
      <div class="grid2">
        {x.variable_importance.length > 0 ? (
          <Section title="Feature importance">
            <BarsChart label="Scaled feature importance" items={x.variable_importance.slice(0, 20).map((v) => ({ name: v.variable, value: v.scaled_importance }))} />
          </Section>
        ) : (
          x.base_model_importance && (
            <Section title="Feature importance">
              <p class="muted">Not recorded: this ensemble was trained before ensembles kept the importance of features.</p>
            </Section>
          )
        )}
        {x.base_model_importance && x.base_model_importance.length > 0 && (
          <Section title="Base model weights">
            <BarsChart label="Weight of each base model in the ensemble's metalearner" items={x.base_model_importance.map((v) => ({ name: v.variable, value: v.scaled_importance }))} />
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
            <RocChart series={[{ label: 'ROC', ...x.roc_curve }]} />
          </Section>
        )}
        {x.roc_curve && (
          <Section title="Precision-recall curve">
            {x.pr_curve ? (
              <PrChart series={[{ label: 'precision-recall', ...x.pr_curve }]} baseRate={x.pr_curve.precision.at(-1)} />
            ) : (
              <p class="muted">Not recorded: this model was trained before held-out scores were kept for the precision-recall curve.</p>
            )}
          </Section>
        )}
      </div>
      {x.roc_curve && <ThresholdTable x={x} operatingThreshold={operatingThreshold} />}
    </>
  );
}

/** Precision, recall, F1 and lift at thresholds over the held-out scores (binary models). */
function ThresholdTable({ x, operatingThreshold }: { x: Explain; operatingThreshold: number | null }) {
  const rows = x.threshold_table;
  return (
    <Section title="Threshold table">
      {rows ? (
        <>
          <p class="muted">
            Each row predicts positive for the rows scoring at least the threshold: the top 5%, 10%, … of the held-out rows ({splitLabel(x.metric_split)}). Lift is precision over the share of
            positives: how many times better than picking rows at random.
            {operatingThreshold !== null && ` The model's own decision threshold is ${fmtNum(operatingThreshold, 4)} (the one with the best F1).`}
          </p>
          <Table
            caption="Threshold table"
            rows={rows}
            columns={[
              { head: 'Threshold', cell: (r) => fmtNum(r.threshold, 4), num: true },
              { head: 'Predicted positive', cell: (r) => `${fmtNum(r.positive_rate * 100, 3)}%`, num: true },
              { head: 'Precision', cell: (r) => fmtNum(r.precision, 3), num: true },
              { head: 'Recall', cell: (r) => fmtNum(r.recall, 3), num: true },
              { head: 'F1', cell: (r) => fmtNum(r.f1, 3), num: true },
              { head: 'Lift', cell: (r) => fmtNum(r.lift, 3), num: true },
            ]}
          />
        </>
      ) : (
        <p class="muted">Not recorded: this model was trained before held-out scores were kept for a threshold table.</p>
      )}
    </Section>
  );
}

type Parameters = Record<string, { default?: unknown; actual?: unknown }>;

/** The values the model trained with, each marked as the algorithm's default or changed from it. */
function Hyperparameters({ parameters }: { parameters: Parameters }) {
  const rows = Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Section title="Hyperparameters">
      <Table
        caption="Hyperparameters"
        rows={rows}
        empty="No parameters recorded."
        columns={[
          { head: 'Parameter', cell: ([k]) => k },
          { head: 'Value', cell: ([, p]) => <span class="clip">{paramText(p.actual)}</span> },
          {
            head: 'Default?',
            cell: ([, p]) => {
              const d = isDefault(p);
              if (d === null) return <span class="muted">no algorithm default</span>;
              return d ? <span class="badge">default</span> : <span class="badge changed">changed from {paramText(p.default)}</span>;
            },
          },
        ]}
      />
    </Section>
  );
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
  const { confirm, dialog } = useConfirm();
  return (
    <Section title="Deployments">
      {dialog}
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
            // Production serves real traffic at once: the one deploy that asks first.
            if (stage === 'production') {
              const ok = await confirm({
                question: `Deploy ${model.name} to production as '${name}'?`,
                consequence: 'It starts answering production predictions as soon as it is ready.',
                confirmLabel: 'Deploy to production',
              });
              if (!ok) return;
            }
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
