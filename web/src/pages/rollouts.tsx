import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { fmtSecs, modelLabel, ProjectCrumb, useProject, useProjectModels } from './mlops-shared';
import { ConfirmButton } from '../confirm';

type Deployment = GetBody<'/api/mlops/deployments/{deployment_id}'>['deployment'];
type Rollout = GetBody<'/api/mlops/strategies/{rollout_id}'>;
type RolloutRow = ListItem<'/api/mlops/deployments/{deployment_id}/strategies'>;
type Shadow = GetBody<'/api/mlops/deployments/{deployment_id}/shadow'>;
/** The split of the traffic answer (`GET …/traffic`), whose shape the document states on `PUT …/traffic`. */
type Split = Answer<'/api/mlops/deployments/{deployment_id}/traffic', 'put'>;
type Kind = Rollout['kind'];
type Gate = Rollout['steps'][number]['gates'][number];
type Signal = 'pause' | 'resume' | 'abort' | 'promote' | 'rollback';

/** The signals that change what serves production, each with the question its confirmation asks. */
const SIGNAL_CONFIRMS: Partial<Record<Signal, (kind: string) => { question: string; consequence: string }>> = {
  promote: (kind) =>
    kind === 'blue_green'
      ? { question: 'End the blue-green window now?', consequence: 'The candidate keeps all production traffic; the stable deployment is archived.' }
      : { question: 'Promote the candidate to production now?', consequence: 'It takes all production traffic; the stable deployment is archived.' },
  rollback: () => ({ question: 'Roll the rollout back?', consequence: 'All traffic returns to the stable deployment; the candidate is archived.' }),
  abort: () => ({ question: 'Abort the rollout?', consequence: 'All traffic returns to the stable deployment and the rollout ends.' }),
};
type RegisteredModel = ListItem<'/api/mlops/projects/{project_id}/registry'>;
type Version = ListItem<'/api/mlops/registry/{registered_model_id}/versions'>;

const KINDS: [Kind, string][] = [
  ['canary', 'Canary (traffic in steps, gated)'],
  ['blue_green', 'Blue-green (switch at once, keep the previous)'],
  ['shadow', 'Shadow (mirror requests, compare)'],
];
const GATE_METRICS: Gate['metric'][] = ['error_rate', 'latency_p99', 'latency_p95', 'prediction_anomaly', 'accuracy'];
const OPS: [Gate['op'], string][] = [
  ['lt', '<'],
  ['lte', '≤'],
  ['gt', '>'],
  ['gte', '≥'],
];
const OP_TEXT = Object.fromEntries(OPS) as Record<string, string>;
const OPEN_STATES = ['running', 'paused'];

const isOpen = (r: { state: string }) => OPEN_STATES.includes(r.state);

/**
 * A deployment's rollouts: the open one live (steps, gates, traffic split, signals; a shadow's comparison), the form
 * that starts one on a production deployment, and the past ones.
 */
export function RolloutsTab({ dep, onChange }: { dep: Deployment; /** The deployment changed (a rollout ended: promoted, the stable archived). */ onChange: () => void }) {
  const list = usePaged(({ limit, offset }) => get<Page<RolloutRow>>(`/api/mlops/deployments/${dep.id}/strategies${qs({ limit, offset })}`), [dep.id], 20);
  const [picked, setPicked] = useState<string>();
  const rows = list.data?.items ?? [];
  const open = rows.find(isOpen);
  // The open row's candidate deployment appears once its workflow made it.
  usePoll(list.reload, 5000, open !== undefined);
  // The newest rollout (the open one, if any: one per deployment) unless another was picked.
  const shown = picked ?? rows[0]?.id;
  return (
    <>
      {shown && (
        <RolloutView
          key={shown}
          rolloutId={shown}
          onEnded={() => {
            list.reload();
            onChange();
          }}
        />
      )}
      {list.data && !open && dep.stage === 'production' && dep.is_active && (
        <StartRollout
          dep={dep}
          onStarted={(id) => {
            setPicked(id);
            list.reload();
          }}
        />
      )}
      {list.data && !open && dep.stage !== 'production' && <p class="muted">Rollouts start on an active production deployment.</p>}
      <Section title="Rollouts">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Rollouts of this deployment"
            rows={rows}
            empty="No rollout yet."
            columns={[
              { head: 'Kind', cell: (r) => r.kind },
              { head: 'State', cell: (r) => <Status value={r.state} /> },
              { head: 'Candidate', cell: (r) => (r.candidate_deployment_id ? <Link href={`/app/deployments/${r.candidate_deployment_id}`}>deployment</Link> : '–') },
              { head: 'Started', cell: (r) => fmtDate(r.created_at) },
              { head: 'Reason', cell: (r) => r.reason ?? '–' },
              {
                head: 'Details',
                cell: (r) => (
                  <button type="button" class="secondary small" aria-label={`Show the ${r.kind} rollout of ${fmtDate(r.created_at)}`} aria-pressed={shown === r.id} onClick={() => setPicked(r.id)}>
                    Show
                  </button>
                ),
              },
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

/** A rollout on its own page (retraining jobs link here). */
export function RolloutPage({ id }: { id: string }) {
  const r = useAsync(() => get<Rollout>(`/api/mlops/strategies/${id}`), [id]);
  const { project } = useProject(r.data?.project_id);
  useTitle(r.data ? `Rollout (${r.data.kind})` : 'Rollout');
  if (r.error) return <ErrorBox error={r.error} />;
  if (!r.data) return <Loading />;
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={r.data.project_id} name={project?.name} /> / <Link href={`/app/deployments/${r.data.deployment_id}?tab=rollouts`}>Deployment rollouts</Link> /
      </p>
      <h1>Rollout</h1>
      <RolloutView rolloutId={id} />
    </>
  );
}

/** A rollout's live state, read again every two seconds while it is open. */
function RolloutView({ rolloutId, onEnded }: { rolloutId: string; onEnded?: () => void }) {
  const r = useAsync(() => get<Rollout>(`/api/mlops/strategies/${rolloutId}`), [rolloutId]);
  const open = r.data ? isOpen(r.data) : false;
  const split = useAsync(
    () => (r.data && open ? get<{ split: Split }>(`/api/mlops/deployments/${r.data.deployment_id}/traffic`).then((t) => t.split) : Promise.resolve(undefined)),
    [r.data?.deployment_id, r.data?.state, r.data?.step_index, r.data?.current_traffic_percent],
  );
  usePoll(r.reload, 2000, open);
  usePoll(split.reload, 2000, open);
  // The list beside this view learns that the rollout ended (its row's state, the start form).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) onEnded?.();
    wasOpen.current = open;
  }, [open]);
  const { busy, error, run } = useAction();
  if (r.error) return <ErrorBox error={r.error} />;
  if (!r.data) return <Loading />;
  const ro = r.data;
  const signal = (s: Signal) => void run(() => post(`/api/mlops/strategies/${ro.id}/${s}`, {}).then(r.reload));
  const signals: [Signal, string, string][] = [];
  if (ro.state === 'running') signals.push(['pause', 'Pause', 'secondary']);
  if (ro.state === 'paused') signals.push(['resume', 'Resume', '']);
  if (open) signals.push(['promote', ro.kind === 'blue_green' ? 'End the window' : 'Promote now', '']);
  if (open && ro.kind !== 'shadow') signals.push(['rollback', 'Roll back', 'secondary']);
  if (open) signals.push(['abort', 'Abort', 'danger']);
  return (
    <>
      <Section title={`${kindText(ro.kind)} rollout`}>
        <dl class="facts">
          <dt>State</dt>
          <dd>
            <Status value={ro.state} />
          </dd>
          {ro.kind === 'canary' && (
            <>
              <dt>Step</dt>
              <dd>
                {Math.min(ro.step_index + 1, ro.steps.length)} of {ro.steps.length}
              </dd>
            </>
          )}
          <dt>{ro.kind === 'shadow' ? 'Mirrored' : 'Candidate traffic'}</dt>
          <dd>{ro.kind === 'shadow' ? `${ro.options.sample_percent ?? 100}% of requests` : `${ro.current_traffic_percent}%`}</dd>
          <dt>Candidate</dt>
          <dd>
            <Link href={`/app/models/${ro.candidate_model_id}`}>model</Link>
            {ro.candidate_deployment_id && (
              <>
                {' · '}
                <Link href={`/app/deployments/${ro.candidate_deployment_id}`}>its deployment</Link>
              </>
            )}
          </dd>
          <dt>Started</dt>
          <dd>{fmtDate(ro.created_at)}</dd>
          {ro.finished_at && (
            <>
              <dt>Ended</dt>
              <dd>{fmtDate(ro.finished_at)}</dd>
            </>
          )}
          {ro.reason && (
            <>
              <dt>Reason</dt>
              <dd>{ro.reason}</dd>
            </>
          )}
        </dl>
        {signals.length > 0 && (
          <div class="row wrap">
            {signals.map(([s, label, cls]) => {
              const question = SIGNAL_CONFIRMS[s];
              return question ? (
                <ConfirmButton key={s} class={cls} disabled={busy} confirm={{ ...question(ro.kind), confirmLabel: label }} onConfirm={() => signal(s)}>
                  {label}
                </ConfirmButton>
              ) : (
                <button key={s} type="button" class={cls || undefined} disabled={busy} onClick={() => signal(s)}>
                  {label}
                </button>
              );
            })}
          </div>
        )}
        <ErrorBox error={error} />
      </Section>
      {ro.kind === 'canary' && <Steps rollout={ro} />}
      {ro.gates_last.length > 0 && (
        <Section title="Gates at the last check">
          <Table
            caption="Gate results"
            rows={ro.gates_last}
            columns={[
              { head: 'Metric', cell: (g) => g.metric },
              { head: 'Observed', cell: (g) => fmtNum(g.observed), num: true },
              { head: 'Condition', cell: (g) => `${OP_TEXT[g.op] ?? g.op} ${fmtNum(g.threshold)}` },
              { head: 'Samples', cell: (g) => g.samples, num: true },
              { head: 'Result', cell: (g) => <Status value={g.passed ? 'passed' : 'failed'} /> },
            ]}
          />
        </Section>
      )}
      {open && split.data && <TrafficSplit split={split.data} />}
      {/* The comparison exists once the workflow made the shadow's deployment. */}
      {ro.kind === 'shadow' && ro.candidate_deployment_id && <ShadowComparison deploymentId={ro.deployment_id} live={open} />}
      <Section title="Rollout history">
        <Table
          caption="Rollout history"
          rows={[...ro.history].reverse()}
          empty="Nothing yet."
          columns={[
            { head: 'When', cell: (h) => fmtDate(h.at) },
            { head: 'Event', cell: (h) => h.event },
            { head: 'Detail', cell: (h) => h.detail || '–' },
          ]}
        />
      </Section>
    </>
  );
}

function kindText(kind: Kind): string {
  return kind === 'blue_green' ? 'Blue-green' : kind === 'canary' ? 'Canary' : 'Shadow';
}

function Steps({ rollout: ro }: { rollout: Rollout }) {
  const open = isOpen(ro);
  const stepState = (i: number) => (i < ro.step_index || (!open && ro.state === 'promoted') ? 'done' : i === ro.step_index && open ? 'current' : 'pending');
  return (
    <Section title="Steps">
      <Table
        caption="Canary steps"
        rows={ro.steps.map((s, i) => ({ ...s, i }))}
        columns={[
          { head: 'Step', cell: (s) => s.i + 1, num: true },
          { head: 'Traffic', cell: (s) => `${s.traffic_percent}%`, num: true },
          { head: 'Pause', cell: (s) => fmtSecs(s.pause_secs) },
          { head: 'Gates', cell: (s) => s.gates.map((g) => `${g.metric} ${OP_TEXT[g.op] ?? g.op} ${fmtNum(g.threshold)} (≥ ${g.min_samples} samples)`).join('; ') || '–' },
          { head: 'Status', cell: (s) => <Status value={stepState(s.i)} /> },
        ]}
      />
      <p class="muted">
        Gates checked every {fmtSecs(ro.options.gate_interval_secs ?? 60)}; when all steps pass: {ro.options.on_success ?? 'promote'}.
      </p>
    </Section>
  );
}

function TrafficSplit({ split }: { split: Split }) {
  const rows: { role: string; id: string; share: string }[] = [{ role: 'stable', id: split.stable.deployment_id, share: `${split.stable.traffic_percent}%` }];
  if (split.candidate) rows.push({ role: 'candidate', id: split.candidate.deployment_id, share: `${split.candidate.traffic_percent}%` });
  if (split.shadow) rows.push({ role: 'shadow', id: split.shadow.deployment_id, share: `${split.shadow.sample_percent}% mirrored` });
  return (
    <Section title="Traffic split">
      <Table
        caption="Traffic split"
        rows={rows}
        columns={[
          { head: 'Role', cell: (r) => r.role },
          { head: 'Deployment', cell: (r) => <Link href={`/app/deployments/${r.id}`}>{r.id.slice(0, 8)}</Link> },
          { head: 'Share', cell: (r) => r.share, num: true },
        ]}
      />
    </Section>
  );
}

/** The stable and the shadow compared request by request, read again every five seconds while the shadow runs. */
function ShadowComparison({ deploymentId, live }: { deploymentId: string; live: boolean }) {
  const [tolerance, setTolerance] = useState('0.01');
  const c = useAsync(() => get<Shadow>(`/api/mlops/deployments/${deploymentId}/shadow${qs({ tolerance: Number(tolerance) >= 0 ? tolerance : undefined })}`), [deploymentId, tolerance]);
  usePoll(c.reload, 5000, live);
  const s = c.data;
  return (
    <Section title="Shadow comparison">
      <div class="grid3">
        <Field label="Tolerance (numbers agree within it)" type="number" min={0} step="any" value={tolerance} onInput={(e) => setTolerance(e.currentTarget.value)} />
      </div>
      <ErrorBox error={c.error} />
      {s ? (
        <dl class="facts">
          <dt>Requests since the shadow began</dt>
          <dd>{fmtNum(s.requests)}</dd>
          <dt>Compared answers</dt>
          <dd>{fmtNum(s.compared)}</dd>
          <dt>Agreement</dt>
          <dd>{s.agreement_rate === null ? '–' : `${fmtNum(s.agreement_rate * 100, 3)}%`}</dd>
          <dt>Mean |Δ|</dt>
          <dd>{fmtNum(s.mean_abs_delta)}</dd>
          <dt>|Δ| p50 / p95</dt>
          <dd>
            {fmtNum(s.delta_p50)} / {fmtNum(s.delta_p95)}
          </dd>
          <dt>Latency p50 / p95 (ms), stable</dt>
          <dd>
            {fmtNum(s.latency_ms.stable.p50, 3)} / {fmtNum(s.latency_ms.stable.p95, 3)}
          </dd>
          <dt>Latency p50 / p95 (ms), shadow</dt>
          <dd>
            {fmtNum(s.latency_ms.shadow.p50, 3)} / {fmtNum(s.latency_ms.shadow.p95, 3)}
          </dd>
          <dt>Shadow errors</dt>
          <dd>{fmtNum(s.errors)}</dd>
        </dl>
      ) : (
        !c.error && <Loading />
      )}
    </Section>
  );
}

/** Starts a canary, blue-green or shadow rollout of another model of the project on this production deployment. */
function StartRollout({ dep, onStarted }: { dep: Deployment; onStarted: (id: string) => void }) {
  const models = useProjectModels(dep.project_id);
  const versions = useRegistryVersions(dep.project_id);
  // A candidate is a model of the project or a registry version (by its id: the API takes either, not both).
  const candidates: [string, string][] = [
    ...(models.data?.items ?? []).filter((m) => m.id !== dep.model_id).map((m): [string, string] => [m.id, modelLabel(m)]),
    ...(versions.data ?? []).filter((v) => v.model_id !== dep.model_id).map((v): [string, string] => [v.id, `${v.registered} v${v.version} (registry, ${v.stage})`]),
  ];
  const isVersion = (id: string) => (versions.data ?? []).some((v) => v.id === id);
  const [kind, setKind] = useState<Kind>('canary');
  const [modelId, setModelId] = useState('');
  const [steps, setSteps] = useState('10, 50');
  const [pause, setPause] = useState('60');
  const [gateMetric, setGateMetric] = useState('error_rate');
  const [gateOp, setGateOp] = useState<Gate['op']>('lt');
  const [gateThreshold, setGateThreshold] = useState('0.05');
  const [minSamples, setMinSamples] = useState('10');
  const [gateInterval, setGateInterval] = useState('60');
  const [onSuccess, setOnSuccess] = useState<'promote' | 'hold'>('promote');
  const [keepPrevious, setKeepPrevious] = useState('600');
  const [warmup, setWarmup] = useState('1');
  const [sample, setSample] = useState('100');
  const [duration, setDuration] = useState('');
  const { busy, error, run, setError } = useAction();
  const chosen = candidates.some(([id]) => id === modelId) ? modelId : (candidates[0]?.[0] ?? '');

  const body = (): Record<string, unknown> | string => {
    const candidate = isVersion(chosen) ? { version_id: chosen } : { model_id: chosen };
    if (kind === 'blue_green') return { ...candidate, keep_previous_secs: Number(keepPrevious), warmup_requests: Number(warmup) };
    if (kind === 'shadow') return { ...candidate, sample_percent: Number(sample), ...(duration ? { duration_secs: Number(duration) } : {}) };
    const shares = steps
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (shares.length === 0 || shares.some((n) => !Number.isInteger(n) || n < 1 || n > 100)) return 'Traffic steps: whole percentages from 1 to 100, separated by commas';
    const gates = gateMetric ? [{ metric: gateMetric, op: gateOp, threshold: Number(gateThreshold), min_samples: Number(minSamples) }] : [];
    return {
      ...candidate,
      steps: shares.map((traffic_percent) => ({ traffic_percent, pause_secs: Number(pause), gates })),
      gate_interval_secs: Number(gateInterval),
      on_success: onSuccess,
    };
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const b = body();
    if (typeof b === 'string') return setError(b);
    const path = kind === 'blue_green' ? 'blue-green' : kind;
    void run(async () => onStarted((await post<Rollout>(`/api/mlops/deployments/${dep.id}/${path}`, b)).id));
  };
  if (models.error) return <ErrorBox error={models.error} />;
  if (!models.data) return <Loading />;
  return (
    <Section title="Start a rollout">
      {candidates.length === 0 ? (
        <p class="muted">No other model of this project to roll out: train one first.</p>
      ) : (
        <form onSubmit={submit} class="grid3">
          <Select label="Strategy" value={kind} options={KINDS} onChange={(e) => setKind(e.currentTarget.value as Kind)} />
          <Select label="Candidate" value={chosen} options={candidates} onChange={(e) => setModelId(e.currentTarget.value)} />
          {kind === 'canary' && (
            <>
              <Field label="Traffic steps (%)" hint="The candidate's share at each step, e.g. 10, 50" required value={steps} onInput={(e) => setSteps(e.currentTarget.value)} />
              <Field label="Pause per step (seconds)" type="number" min={0} max={86400} required value={pause} onInput={(e) => setPause(e.currentTarget.value)} />
              <Select label="Gate metric" value={gateMetric} options={[['', 'no gate'], ...GATE_METRICS]} onChange={(e) => setGateMetric(e.currentTarget.value)} />
              {gateMetric && (
                <>
                  <Select label="Gate holds when observed is" value={gateOp} options={OPS} onChange={(e) => setGateOp(e.currentTarget.value as Gate['op'])} />
                  <Field label="Gate threshold" type="number" step="any" required value={gateThreshold} onInput={(e) => setGateThreshold(e.currentTarget.value)} />
                  <Field label="Minimum samples" type="number" min={1} value={minSamples} onInput={(e) => setMinSamples(e.currentTarget.value)} />
                </>
              )}
              <Field label="Gate interval (seconds)" type="number" min={5} max={3600} value={gateInterval} onInput={(e) => setGateInterval(e.currentTarget.value)} />
              <Select
                label="When all steps pass"
                value={onSuccess}
                options={[
                  ['promote', 'Promote'],
                  ['hold', 'Hold for a manual promote'],
                ]}
                onChange={(e) => setOnSuccess(e.currentTarget.value as 'promote' | 'hold')}
              />
            </>
          )}
          {kind === 'blue_green' && (
            <>
              <Field label="Keep the previous (seconds)" type="number" min={0} max={86400} value={keepPrevious} onInput={(e) => setKeepPrevious(e.currentTarget.value)} />
              <Field label="Warm-up requests" type="number" min={1} max={100} value={warmup} onInput={(e) => setWarmup(e.currentTarget.value)} />
            </>
          )}
          {kind === 'shadow' && (
            <>
              <Field label="Mirrored share (%)" type="number" min={1} max={100} value={sample} onInput={(e) => setSample(e.currentTarget.value)} />
              <Field label="Duration (seconds)" hint="Empty: until promoted or aborted" type="number" min={1} value={duration} onInput={(e) => setDuration(e.currentTarget.value)} />
            </>
          )}
          <div>
            <button type="submit" disabled={busy || !chosen}>
              Start rollout
            </button>
          </div>
        </form>
      )}
      <ErrorBox error={error} />
    </Section>
  );
}

/** The versions of the project's registered models (the first 20 of each of the 20 most recently updated), as candidates. */
function useRegistryVersions(projectId: string) {
  return useAsync(async () => {
    const models = await get<Page<RegisteredModel>>(`/api/mlops/projects/${projectId}/registry${qs({ limit: 20 })}`);
    const lists = await Promise.all(
      models.items.map((m) => get<Page<Version>>(`/api/mlops/registry/${m.id}/versions${qs({ limit: 20 })}`).then((p) => p.items.map((v) => ({ ...v, registered: m.name })))),
    );
    return lists.flat();
  }, [projectId]);
}
