import { useState } from 'preact/hooks';
import { del, get, post, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { ProjectCrumb, useProject, useProjectDeployments, type DeploymentRow } from './mlops-shared';
import { ConfirmButton } from '../confirm';

type AbTestRow = ListItem<'/api/mlops/ab-tests'>;
type AbTest = GetBody<'/api/mlops/ab-tests/{test_id}'>;
type AbTestCreate = Answer<'/api/mlops/ab-tests', 'post'>;
type Metric = AbTest['primary_metric'];

const METRICS: [Metric, string][] = [
  ['accuracy', 'Accuracy (from feedback)'],
  ['log_loss', 'Log loss (from feedback)'],
  ['conversion', 'Conversion (posted outcomes 0/1)'],
  ['revenue', 'Revenue (posted amounts)'],
];

/** A project's A/B tests: the list and the form that creates one between its deployments. */
export function AbTestsPage({ projectId }: { projectId: string }) {
  const { project, error } = useProject(projectId);
  useTitle(project ? `A/B tests · ${project.name}` : 'A/B tests');
  const list = usePaged(({ limit, offset }) => get<Page<AbTestRow>>(`/api/mlops/ab-tests${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  if (error) return <ErrorBox error={error} />;
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={projectId} name={project?.name} /> /
      </p>
      <h1>A/B tests</h1>
      <NewAbTest projectId={projectId} />
      <Section title="A/B tests">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="A/B tests"
            rows={list.data.items}
            empty="No A/B test yet."
            columns={[
              { head: 'Name', cell: (t) => <Link href={`/app/ab-tests/${t.id}`}>{t.name}</Link> },
              { head: 'State', cell: (t) => <Status value={t.state} /> },
              { head: 'Metric', cell: (t) => t.primary_metric },
              { head: 'Variants', cell: (t) => t.variants.map((v) => v.name).join(', ') },
              { head: 'Winner', cell: (t) => (t.conclusion ? (t.conclusion.winner ?? 'none') : '–') },
              { head: 'Created', cell: (t) => fmtDate(t.created_at) },
            ]}
          />
        ) : (
          !list.error && <Loading />
        )}
        {list.pager}
      </Section>
    </>
  );
}

interface VariantInput {
  name: string;
  deploymentId: string;
  weight: string;
}

function NewAbTest({ projectId }: { projectId: string }) {
  const deployments = useProjectDeployments(projectId);
  // Production first: the first variant is the control, which is what serves now.
  const active = (deployments.data?.items ?? []).filter((d) => d.is_active).sort((a, b) => Number(b.stage === 'production') - Number(a.stage === 'production'));
  const [name, setName] = useState('');
  const [metric, setMetric] = useState<Metric>('conversion');
  const [alpha, setAlpha] = useState('0.05');
  const [minSamples, setMinSamples] = useState('100');
  const [variants, setVariants] = useState<VariantInput[]>([
    { name: 'control', deploymentId: '', weight: '1' },
    { name: 'treatment', deploymentId: '', weight: '1' },
  ]);
  const { busy, error, run } = useAction();
  // A variant without a chosen deployment takes the n-th active one, so the form starts out valid.
  const deploymentOf = (v: VariantInput, i: number) => (active.some((d) => d.id === v.deploymentId) ? v.deploymentId : (active[i % Math.max(1, active.length)]?.id ?? ''));
  const set = (i: number, change: Partial<VariantInput>) => setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...change } : v)));
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const t = await post<AbTestCreate>('/api/mlops/ab-tests', {
        project_id: projectId,
        name,
        primary_metric: metric,
        alpha: Number(alpha),
        min_samples: Number(minSamples),
        variants: variants.map((v, i) => ({ name: v.name, deployment_id: deploymentOf(v, i), weight: Number(v.weight) })),
      });
      navigate(`/app/ab-tests/${t.id}`);
    });
  };
  if (deployments.error) return <ErrorBox error={deployments.error} />;
  if (!deployments.data) return <Loading />;
  return (
    <Section title="New A/B test">
      {active.length === 0 ? (
        <p class="muted">This project has no active deployment to test: deploy a model first.</p>
      ) : (
        <form onSubmit={submit}>
          <div class="grid3">
            <Field label="Name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <Select label="Primary metric" value={metric} options={METRICS} onChange={(e) => setMetric(e.currentTarget.value as Metric)} />
            <Field label="Alpha" type="number" min={0.001} max={0.2} step="any" value={alpha} onInput={(e) => setAlpha(e.currentTarget.value)} />
            <Field label="Minimum samples per variant" type="number" min={2} value={minSamples} onInput={(e) => setMinSamples(e.currentTarget.value)} />
          </div>
          <fieldset class="field">
            <legend>Variants (the first is the control)</legend>
            {variants.map((v, i) => (
              <VariantFields
                key={i}
                index={i}
                variant={v}
                deploymentId={deploymentOf(v, i)}
                deployments={active}
                onChange={(c) => set(i, c)}
                onRemove={variants.length > 2 ? () => setVariants((vs) => vs.filter((_, j) => j !== i)) : undefined}
              />
            ))}
            {variants.length < 10 && (
              <div>
                <button type="button" class="secondary small" onClick={() => setVariants((vs) => [...vs, { name: `variant ${vs.length + 1}`, deploymentId: '', weight: '1' }])}>
                  Add a variant
                </button>
              </div>
            )}
          </fieldset>
          <div>
            <button type="submit" disabled={busy}>
              Create A/B test
            </button>
          </div>
        </form>
      )}
      <ErrorBox error={error} />
    </Section>
  );
}

function VariantFields(props: { index: number; variant: VariantInput; deploymentId: string; deployments: DeploymentRow[]; onChange: (c: Partial<VariantInput>) => void; onRemove?: () => void }) {
  const { index, variant, deploymentId, deployments, onChange, onRemove } = props;
  const n = index + 1;
  return (
    <div class="grid3">
      <Field label={`Variant ${n} name`} required maxLength={100} value={variant.name} onInput={(e) => onChange({ name: e.currentTarget.value })} />
      <Select
        label={`Variant ${n} deployment`}
        value={deploymentId}
        options={deployments.map((d): [string, string] => [d.id, `${d.name} (${d.stage})`])}
        onChange={(e) => onChange({ deploymentId: e.currentTarget.value })}
      />
      <Field label={`Variant ${n} weight`} type="number" min={0} step="any" required value={variant.weight} onInput={(e) => onChange({ weight: e.currentTarget.value })} />
      {onRemove && (
        <div>
          <button type="button" class="secondary small" onClick={onRemove}>
            Remove variant {n}
          </button>
        </div>
      )}
    </div>
  );
}

/** One A/B test: its running statistics per variant, the comparisons with the control, and start / stop / promote. */
export function AbTestPage({ id }: { id: string }) {
  const t = useAsync(() => get<AbTest>(`/api/mlops/ab-tests/${id}`), [id]);
  const { project } = useProject(t.data?.project_id);
  const { busy, error, run } = useAction();
  usePoll(t.reload, 5000, t.data?.state === 'running');
  useTitle(t.data ? `A/B test ${t.data.name}` : 'A/B test');
  if (t.error) return <ErrorBox error={t.error} />;
  if (!t.data) return <Loading />;
  const test = t.data;
  const act = (what: 'start' | 'stop' | 'promote') => void run(() => post(`/api/mlops/ab-tests/${id}/${what}`, {}).then(t.reload));
  const remove = () => void run(() => del(`/api/mlops/ab-tests/${id}`).then(() => navigate(`/app/projects/${test.project_id}/ab-tests`)));
  const c = test.conclusion;
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={test.project_id} name={project?.name} /> / <Link href={`/app/projects/${test.project_id}/ab-tests`}>A/B tests</Link> /
      </p>
      <h1>{test.name}</h1>
      {test.description && <p>{test.description}</p>}
      <p class="muted">
        <Status value={test.state} /> · {test.primary_metric} ({test.stats.higher_is_better ? 'higher' : 'lower'} is better) · alpha {fmtNum(test.alpha)} (each comparison at{' '}
        {fmtNum(test.stats.adjusted_alpha)}) · at least {fmtNum(test.min_samples)} per variant
        {test.started_at && ` · started ${fmtDate(test.started_at)}`}
      </p>
      <div class="row wrap">
        {test.state === 'draft' && (
          <button type="button" disabled={busy} onClick={() => act('start')}>
            Start
          </button>
        )}
        {test.state === 'running' && (
          <button type="button" class="secondary" disabled={busy} onClick={() => act('stop')}>
            Stop now
          </button>
        )}
        {c?.winner && !test.promoted_at && (
          <ConfirmButton
            class=""
            disabled={busy}
            confirm={{
              question: `Promote ${c.winner} of A/B test '${test.name}' to production?`,
              consequence: "Its model serves the project's production traffic; the current production deployment is archived.",
              confirmLabel: 'Promote',
            }}
            onConfirm={() => act('promote')}
          >
            Promote {c.winner} to production
          </ConfirmButton>
        )}
        {test.state !== 'running' && (
          <ConfirmButton
            disabled={busy}
            confirm={{ question: `Delete the A/B test '${test.name}'?`, consequence: 'Its assignments, outcomes and statistics are deleted.', confirmLabel: 'Delete' }}
            onConfirm={remove}
          >
            Delete
          </ConfirmButton>
        )}
      </div>
      <ErrorBox error={error} />
      {c && (
        <p role="status" class={c.winner ? 'ok' : 'muted'}>
          {c.winner
            ? `Concluded ${fmtDate(c.decided_at)}: ${c.winner} wins against ${c.against ?? 'the control'} by ${fmtNum(c.effect)}${c.ci ? ` (interval ${fmtNum(c.ci[0])} to ${fmtNum(c.ci[1])})` : ''}, p = ${fmtNum(c.p_value)}`
            : `Stopped ${fmtDate(c.decided_at)} without a significant difference.`}
          {test.promoted_at && ` Promoted ${fmtDate(test.promoted_at)}.`}
        </p>
      )}
      <Section title="Variants">
        <Table
          caption="Variant statistics"
          rows={test.stats.variants}
          columns={[
            { head: 'Variant', cell: (v) => v.name },
            { head: 'Deployment', cell: (v) => <Link href={`/app/deployments/${v.deployment_id}`}>{v.deployment_id.slice(0, 8)}</Link> },
            { head: 'Weight', cell: (v) => fmtNum(test.variants.find((x) => x.name === v.name)?.weight), num: true },
            { head: 'Observations', cell: (v) => fmtNum(v.n), num: true },
            { head: 'Mean', cell: (v) => fmtNum(v.mean), num: true },
            { head: 'Std', cell: (v) => fmtNum(v.std), num: true },
          ]}
        />
      </Section>
      <Section title="Comparisons with the control">
        <Table
          caption="Comparisons"
          rows={test.stats.comparisons}
          empty="Nothing to compare yet."
          columns={[
            { head: 'Variant', cell: (x) => x.variant },
            { head: 'Against', cell: (x) => x.against },
            { head: 'Effect', cell: (x) => fmtNum(x.effect), num: true },
            { head: 'Interval', cell: (x) => (x.ci_low === null || x.ci_high === null ? '–' : `${fmtNum(x.ci_low)} to ${fmtNum(x.ci_high)}`) },
            { head: 'p-value', cell: (x) => fmtNum(x.p_value), num: true },
            { head: 'Significant', cell: (x) => (x.significant ? 'yes' : 'no') },
          ]}
        />
        <p class="muted">
          Always-valid p-values and intervals (mixture SPRT): the test may be read at any time without inflating false positives.
          {test.state === 'running' && (test.primary_metric === 'conversion' || test.primary_metric === 'revenue') && ` Outcomes: POST /api/mlops/ab-tests/${id}/outcomes.`}
        </p>
      </Section>
      {test.promoted_deployment_id && (
        <p>
          Production now: <Link href={`/app/deployments/${test.promoted_deployment_id}`}>the winner's deployment</Link>
        </p>
      )}
    </>
  );
}
