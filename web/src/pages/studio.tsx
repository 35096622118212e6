import { useEffect, useState } from 'preact/hooks';
import { get, post, qs, type Answer, type GetBody, type Page } from '../api';
import { BarsChart } from '../chart';
import { FeatureFields, levelsOf, rangesOf, textRow, typedRow, typedValue, type FeatureColumn } from '../features';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, usePaged, useTitle } from '../ui';
import type { DeploymentRow } from './projects';

type Output = StudioSession['baseline_output'];
type StudioSession = GetBody<'/api/studio/sessions/{session_id}'>['session'];
type Schema = GetBody<'/api/studio/deployments/{deployment_id}/schema'>;
type Compare = GetBody<'/api/studio/sessions/{session_id}/compare'>;

const columnsOf = (schema: Record<string, string>): FeatureColumn[] => Object.entries(schema).map(([name, dtype]) => ({ name, dtype }));

/** "1 (P(1) = 0.83)": a prediction with the probability of its positive class where the model has one. */
function outputText(o: Output | null | undefined): string {
  if (!o) return '–';
  const p = typeof o.probability === 'number' ? ` (P(${o.positive_class ?? String(o.prediction)}) = ${fmtNum(o.probability, 3)})` : '';
  return `${String(o.prediction)}${p}`;
}

/** The project's studio tab: what-if sessions on its active deployments, and a new one from a baseline row. */
export function StudioTab({ projectId }: { projectId: string }) {
  const deployments = useAsync(() => get<Page<DeploymentRow>>(`/api/mlops/projects/${projectId}/deployments${qs({ limit: 200 })}`), [projectId]);
  const sessions = usePaged(({ limit, offset }) => get<GetBody<'/api/studio/sessions'>>(`/api/studio/sessions${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const names = new Map((deployments.data?.items ?? []).map((d) => [d.id, d.name]));
  const active = (deployments.data?.items ?? []).filter((d) => d.is_active);
  return (
    <>
      <Section title="New what-if session">
        <ErrorBox error={deployments.error} />
        {!deployments.data ? (
          <Loading />
        ) : active.length === 0 ? (
          <p class="muted">No active deployment: deploy a model from its page first.</p>
        ) : (
          <NewStudioSession projectId={projectId} deployments={active} />
        )}
      </Section>
      <Section title="Studio sessions">
        <ErrorBox error={sessions.error} />
        {sessions.data ? (
          <Table
            caption="Studio sessions"
            rows={sessions.data.items}
            empty="No session yet."
            columns={[
              { head: 'Session', cell: (s) => <Link href={`/app/studio/${s.id}`}>{`Session of ${fmtDate(s.created_at)}`}</Link> },
              { head: 'Deployment', cell: (s) => <Link href={`/app/deployments/${s.deployment_id}`}>{names.get(s.deployment_id) ?? 'deployment'}</Link> },
            ]}
          />
        ) : (
          !sessions.error && <Loading />
        )}
        {sessions.pager}
      </Section>
    </>
  );
}

function NewStudioSession({ projectId, deployments }: { projectId: string; deployments: DeploymentRow[] }) {
  const [deploymentId, setDeploymentId] = useState(deployments[0].id);
  const schema = useAsync(() => get<Schema>(`/api/studio/deployments/${deploymentId}/schema`), [deploymentId]);
  const columns = schema.data ? columnsOf(schema.data.feature_schema) : [];
  const [values, setValues] = useState<Record<string, string>>({});
  const { busy, error, run } = useAction();
  // The baseline starts from the example input the API builds (typical training values, PII masked).
  useEffect(() => {
    if (schema.data) setValues(textRow(columnsOf(schema.data.feature_schema), schema.data.example_input));
  }, [schema.data]);
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const r = await post<Answer<'/api/studio/sessions', 'post'>>('/api/studio/sessions', { project_id: projectId, deployment_id: deploymentId, baseline_input: typedRow(columns, values) });
          navigate(`/app/studio/${r.id}`);
        });
      }}
    >
      <Select label="Deployment" value={deploymentId} options={deployments.map((d) => [d.id, `${d.name} (${d.stage})`] as [string, string])} onChange={(e) => setDeploymentId(e.currentTarget.value)} />
      <ErrorBox error={schema.error} />
      {schema.data && (
        <>
          <p class="muted">
            Baseline row{schema.data.example_source === 'unavailable' ? ' (the training data is gone: fill it in)' : ': typical values of the training data (PII masked), change them as you like'}
            {schema.data.target_column ? `; the target ${schema.data.target_column} is left out` : ''}.
          </p>
          <FeatureFields schema={columns} values={values} onChange={setValues} />
        </>
      )}
      <ErrorBox error={error} />
      <div>
        <button type="submit" disabled={busy || !schema.data}>
          Start session
        </button>
      </div>
    </form>
  );
}

/** A what-if session: the baseline's prediction, scenarios made with sliders and inputs, and their comparison. */
export function StudioSessionPage({ id }: { id: string }) {
  const s = useAsync(() => get<GetBody<'/api/studio/sessions/{session_id}'>>(`/api/studio/sessions/${id}`).then((r) => r.session), [id]);
  const session = s.data;
  const succeeded = session?.scenarios.filter((x) => x.status === 'succeeded').length ?? 0;
  const compare = useAsync(() => (succeeded > 0 ? get<Compare>(`/api/studio/sessions/${id}/compare`) : Promise.resolve(null)), [id, succeeded, session?.scenarios.length]);
  const { busy, error, run } = useAction();
  useTitle('Studio session');
  if (s.error) return <ErrorBox error={s.error} />;
  if (!session) return <Loading />;
  const columns = columnsOf(session.feature_schema);
  const baselineText = textRow(columns, session.baseline_input);
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${session.project_id}?tab=studio`}>Project studio</Link> / <Link href={`/app/deployments/${session.deployment_id}`}>Deployment</Link> /
      </p>
      <h1>Studio session</h1>
      <p class="muted">Started {fmtDate(session.created_at)}. Scenarios change the baseline; scoring them is not inference traffic.</p>
      <div class="grid2">
        <Section title="Baseline">
          <p>
            Prediction: <strong data-testid="baseline-prediction">{outputText(session.baseline_output)}</strong>
          </p>
          <Table
            caption="Baseline input"
            rows={columns}
            columns={[
              { head: 'Feature', cell: (c) => c.name },
              { head: 'Value', cell: (c) => baselineText[c.name] || '(missing)' },
            ]}
          />
        </Section>
        <Section title="Baseline contributions">
          {session.baseline_contributions.length > 0 ? (
            <BarsChart
              label="Contribution of each input to the baseline prediction"
              items={session.baseline_contributions
                .filter((c) => c.feature !== 'BiasTerm')
                .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
                .slice(0, 15)
                .map((c) => ({ name: c.feature, value: c.value }))}
            />
          ) : (
            <p class="muted">This model gives no contributions.</p>
          )}
        </Section>
      </div>
      <NewScenario session={session} columns={columns} baseline={baselineText} onAdded={s.reload} />
      <Section title="Scenarios">
        <ErrorBox error={error} />
        <Table
          caption="Scenarios"
          rows={session.scenarios}
          empty="No scenario yet."
          columns={[
            { head: 'Scenario', cell: (x) => x.name },
            {
              head: 'Changes',
              cell: (x) =>
                Object.entries(x.changes)
                  .map(([k, v]) => `${k} = ${String(v)}`)
                  .join(', ') || '(none)',
            },
            { head: 'Status', cell: (x) => <Status value={x.status} /> },
            { head: 'Prediction', cell: (x) => (x.status === 'failed' ? <span class="error">{x.error}</span> : outputText(x.output)) },
            {
              head: 'Run',
              cell: (x) => (
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`${x.status === 'pending' ? 'Run' : 'Run again'} scenario ${x.name}`}
                  disabled={busy}
                  onClick={() => void run(() => post(`/api/studio/scenarios/${x.id}/run`).finally(s.reload))}
                >
                  {x.status === 'pending' ? 'Run' : 'Run again'}
                </button>
              ),
            },
          ]}
        />
      </Section>
      {compare.data && <CompareView c={compare.data} />}
      <ErrorBox error={compare.error} />
    </>
  );
}

/** Only the features moved away from the baseline are sent as `changes`. */
function changesOf(columns: FeatureColumn[], baseline: Record<string, string>, values: Record<string, string>): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const c of columns) if ((values[c.name] ?? '') !== (baseline[c.name] ?? '')) out[c.name] = typedValue(c, values[c.name]);
  return out;
}

function NewScenario({ session, columns, baseline, onAdded }: { session: StudioSession; columns: FeatureColumn[]; baseline: Record<string, string>; onAdded: () => void }) {
  // Slider ranges and suggested levels from a sample of the training data; without it (deployment gone) the inputs still work.
  const hints = useAsync(async () => {
    const schema = await get<Schema>(`/api/studio/deployments/${session.deployment_id}/schema`);
    if (!schema.dataset_version_id) return { ranges: {}, levels: {} };
    const sample = await get<GetBody<'/api/dataset-versions/{dataset_version_id}/sample'>>(`/api/dataset-versions/${schema.dataset_version_id}/sample${qs({ n: 500, seed: 1 })}`);
    return { ranges: rangesOf(columns, sample.rows), levels: levelsOf(columns, sample.rows) };
  }, [session.id]);
  const [name, setName] = useState('');
  const [values, setValues] = useState(baseline);
  const { busy, error, run } = useAction();
  const changes = changesOf(columns, baseline, values);
  return (
    <Section title="New scenario">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await post<Answer<'/api/studio/sessions/{session_id}/scenarios', 'post'>>(`/api/studio/sessions/${session.id}/scenarios`, {
              name: name || `Scenario ${session.scenarios.length + 1}`,
              changes,
            });
            // A scenario is scored at once; a value that does not fit its feature leaves it failed with the reason.
            await post(`/api/studio/scenarios/${r.id}/run`).finally(onAdded);
            setName('');
          });
        }}
      >
        <Field label="Scenario name" placeholder={`Scenario ${session.scenarios.length + 1}`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <FeatureFields schema={columns} values={values} onChange={setValues} ranges={hints.data?.ranges} levels={hints.data?.levels} />
        <p class="muted" aria-live="polite">
          Changes from the baseline:{' '}
          {Object.entries(changes)
            .map(([k, v]) => `${k} = ${String(v)}`)
            .join(', ') || 'none yet'}
        </p>
        <ErrorBox error={error} />
        <div class="row wrap">
          <button type="submit" disabled={busy}>
            Add and run scenario
          </button>
          <button type="button" class="secondary" onClick={() => setValues(baseline)}>
            Back to the baseline
          </button>
        </div>
      </form>
    </Section>
  );
}

function CompareView({ c }: { c: Compare }) {
  const numeric = c.scenarios.some((x) => x.delta.prediction !== null);
  const probability = c.scenarios.some((x) => x.delta.probability !== null);
  const deltaOf = (x: Compare['scenarios'][number]) => (numeric ? x.delta.prediction : x.delta.probability);
  return (
    <Section title="Compare">
      <p>Baseline prediction: {outputText(c.baseline.output)}</p>
      <Table
        caption="Scenarios against the baseline"
        rows={c.scenarios}
        columns={[
          { head: 'Scenario', cell: (x) => x.name },
          { head: 'Prediction', cell: (x) => outputText(x.output) },
          ...(numeric ? [{ head: 'Prediction delta', cell: (x: Compare['scenarios'][number]) => fmtNum(x.delta.prediction, 4), num: true }] : []),
          ...(probability ? [{ head: 'Probability delta', cell: (x: Compare['scenarios'][number]) => fmtNum(x.delta.probability, 3), num: true }] : []),
          {
            head: 'Largest contribution changes',
            cell: (x) =>
              x.delta.contributions
                .slice(0, 3)
                .map((d) => `${d.feature} ${d.delta >= 0 ? '+' : ''}${fmtNum(d.delta, 3)}`)
                .join(', ') || '–',
          },
        ]}
      />
      {(numeric || probability) && (
        <BarsChart label={numeric ? 'Prediction change against the baseline' : 'Probability change against the baseline'} items={c.scenarios.map((x) => ({ name: x.name, value: deltaOf(x) ?? 0 }))} />
      )}
    </Section>
  );
}
