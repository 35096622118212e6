import { useState } from 'preact/hooks';
import { del, get, patch, post, qs, type Answer, type ListItem, type Page } from '../api';
import { Link } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { fmtSecs, mayDecide, ProjectCrumb, useProject } from './mlops-shared';
import { ConfirmButton } from '../confirm';

type Policy = ListItem<'/api/mlops/retraining-policies'>;
type PolicyCreate = Answer<'/api/mlops/retraining-policies', 'post'>;
type Job = ListItem<'/api/mlops/retraining-jobs'>;
type Trigger = ListItem<'/api/mlops/retraining-policies/{policy_id}/triggers'>;
type RegisteredModel = ListItem<'/api/mlops/projects/{project_id}/registry'>;
type AlertRule = ListItem<'/api/mlops/projects/{project_id}/alert-rules'>;
type Outcome = Policy['outcome'];

const OUTCOMES: [Outcome, string][] = [
  ['approval', 'Ask for approval (a transition request)'],
  ['register', 'Register the challenger only'],
  ['canary', 'Canary rollout, promoted when it passes'],
  ['shadow', 'Shadow rollout, then approval'],
  ['auto_promote', 'Promote at once'],
];
const OPEN_STATES: Job['state'][] = ['queued', 'training', 'evaluating', 'awaiting_approval'];

/** A project's retraining: its policies (form and list, run now) and the retraining jobs they started. */
export function RetrainingPage({ projectId }: { projectId: string }) {
  const { project, error } = useProject(projectId);
  useTitle(project ? `Retraining · ${project.name}` : 'Retraining');
  const registry = useAsync(() => get<Page<RegisteredModel>>(`/api/mlops/projects/${projectId}/registry${qs({ limit: 200, sort_field: 'name', sort_direction: 'asc' })}`), [projectId]);
  const policies = usePaged(({ limit, offset }) => get<Page<Policy>>(`/api/mlops/retraining-policies${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const jobs = usePaged(({ limit, offset }) => get<Page<Job>>(`/api/mlops/retraining-jobs${qs({ project_id: projectId, limit, offset })}`), [projectId], 20);
  usePoll(
    jobs.reload,
    5000,
    (jobs.data?.items ?? []).some((j) => OPEN_STATES.includes(j.state)),
  );
  if (error) return <ErrorBox error={error} />;
  const models = registry.data?.items ?? [];
  const modelName = (id: string) => models.find((m) => m.id === id)?.name ?? id.slice(0, 8);
  const policyName = (id: string) => policies.data?.items.find((p) => p.id === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={projectId} name={project?.name} tab="models" /> /
      </p>
      <h1>Retraining</h1>
      <ErrorBox error={registry.error} />
      {registry.data &&
        (models.length === 0 ? (
          <p class="muted">
            Retraining works on a registered model with a champion: <Link href={`/app/projects/${projectId}/registry`}>register one first</Link>.
          </p>
        ) : (
          <PolicyForm projectId={projectId} models={models} onCreated={policies.reload} />
        ))}
      <Policies list={policies} modelName={modelName} onRun={jobs.reload} />
      <Section title="Retraining jobs">
        <ErrorBox error={jobs.error} />
        {jobs.data ? <JobsTable jobs={jobs.data.items} canDecide={mayDecide(project)} policyName={policyName} onChange={jobs.reload} /> : !jobs.error && <Loading />}
        {jobs.pager}
      </Section>
    </>
  );
}

function PolicyForm({ projectId, models, onCreated }: { projectId: string; models: RegisteredModel[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [modelId, setModelId] = useState('');
  const [outcome, setOutcome] = useState<Outcome>('approval');
  const [cron, setCron] = useState('');
  const [drift, setDrift] = useState(false);
  const [driftThreshold, setDriftThreshold] = useState('0.2');
  const [consecutive, setConsecutive] = useState('1');
  const [newVersion, setNewVersion] = useState(false);
  const [minImprovement, setMinImprovement] = useState('0');
  const [cooldown, setCooldown] = useState('3600');
  const [maxModels, setMaxModels] = useState('');
  const [canarySteps, setCanarySteps] = useState('10, 50');
  const [canaryPause, setCanaryPause] = useState('60');
  const [ruleIds, setRuleIds] = useState<string[]>([]);
  // Only accuracy_degradation rules may trigger a retraining (the API refuses the others).
  const rules = useAsync(() => get<Page<AlertRule>>(`/api/mlops/projects/${projectId}/alert-rules${qs({ limit: 100 })}`), [projectId]);
  const accuracyRules = (rules.data?.items ?? []).filter((r) => r.metric === 'accuracy_degradation');
  const { busy, error, run } = useAction();
  const chosen = models.some((m) => m.id === modelId) ? modelId : (models[0]?.id ?? '');
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post<PolicyCreate>('/api/mlops/retraining-policies', {
        project_id: projectId,
        registered_model_id: chosen,
        name,
        outcome,
        cooldown_secs: Number(cooldown),
        triggers: {
          ...(cron.trim() ? { schedule_cron: cron.trim() } : {}),
          ...(drift ? { drift: { threshold: Number(driftThreshold), consecutive: Number(consecutive) } } : {}),
          new_dataset_version: newVersion,
          ...(ruleIds.length ? { alert_rule_ids: ruleIds } : {}),
        },
        gate: { min_improvement: Number(minImprovement) },
        ...(maxModels ? { experiment: { max_models: Number(maxModels) } } : {}),
        ...(outcome === 'canary'
          ? {
              canary: {
                steps: canarySteps
                  .split(/[\s,]+/)
                  .filter(Boolean)
                  .map((p) => ({ traffic_percent: Number(p), pause_secs: Number(canaryPause) })),
              },
            }
          : {}),
      });
      setName('');
      onCreated();
    });
  };
  return (
    <Section title="New policy">
      <form onSubmit={submit}>
        <div class="grid3">
          <Field label="Name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <Select label="Registered model" value={chosen} options={models.map((m): [string, string] => [m.id, m.name])} onChange={(e) => setModelId(e.currentTarget.value)} />
          <Select label="Outcome" value={outcome} options={OUTCOMES} onChange={(e) => setOutcome(e.currentTarget.value as Outcome)} />
          <Field
            label="Minimum improvement"
            hint="How much better the challenger must score on the holdout"
            type="number"
            step="any"
            value={minImprovement}
            onInput={(e) => setMinImprovement(e.currentTarget.value)}
          />
          <Field label="Cooldown (seconds)" type="number" min={0} value={cooldown} onInput={(e) => setCooldown(e.currentTarget.value)} />
          <Field label="Max models" hint="Empty: as the champion's experiment" type="number" min={1} value={maxModels} onInput={(e) => setMaxModels(e.currentTarget.value)} />
          {outcome === 'canary' && (
            <>
              <Field label="Canary steps (%)" required value={canarySteps} onInput={(e) => setCanarySteps(e.currentTarget.value)} />
              <Field label="Canary pause per step (seconds)" type="number" min={0} value={canaryPause} onInput={(e) => setCanaryPause(e.currentTarget.value)} />
            </>
          )}
        </div>
        <fieldset class="field">
          <legend>Triggers (a manual run always works)</legend>
          <div class="grid3">
            <Field label="Schedule (cron, UTC)" hint="e.g. 0 3 * * 1 or @daily; empty: none" value={cron} onInput={(e) => setCron(e.currentTarget.value)} />
            <label class="check">
              <input type="checkbox" checked={newVersion} onChange={(e) => setNewVersion(e.currentTarget.checked)} />
              On a new version of the training dataset
            </label>
            <label class="check">
              <input type="checkbox" checked={drift} onChange={(e) => setDrift(e.currentTarget.checked)} />
              On drift of the production deployment
            </label>
            {drift && (
              <>
                <Field label="Drift threshold (PSI)" type="number" min={0} step="any" value={driftThreshold} onInput={(e) => setDriftThreshold(e.currentTarget.value)} />
                <Field label="Results in a row" type="number" min={1} max={20} value={consecutive} onInput={(e) => setConsecutive(e.currentTarget.value)} />
              </>
            )}
            {accuracyRules.map((r) => (
              <label key={r.id} class="check">
                <input type="checkbox" checked={ruleIds.includes(r.id)} onChange={(e) => setRuleIds((ids) => (e.currentTarget.checked ? [...ids, r.id] : ids.filter((i) => i !== r.id)))} />
                When alert rule {r.name} fires
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <button type="submit" disabled={busy || !chosen}>
            Create policy
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}

function triggersText(t: Policy['triggers']): string {
  const parts: string[] = [];
  if (t.schedule_cron) parts.push(`cron ${t.schedule_cron}`);
  if (t.drift) parts.push(`drift > ${fmtNum(t.drift.threshold)}${t.drift.consecutive > 1 ? ` ×${t.drift.consecutive}` : ''}`);
  if (t.new_dataset_version) parts.push('new dataset version');
  if (t.alert_rule_ids.length) parts.push(`${t.alert_rule_ids.length} alert rule${t.alert_rule_ids.length === 1 ? '' : 's'}`);
  return parts.join(', ') || 'manual only';
}

function Policies({ list, modelName, onRun }: { list: ReturnType<typeof usePaged<Policy>>; modelName: (id: string) => string; onRun: () => void }) {
  const { busy, error, run } = useAction();
  const [shown, setShown] = useState<string>();
  const act = (fn: () => Promise<unknown>) => void run(() => fn().then(list.reload));
  return (
    <>
      <Section title="Policies">
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="Retraining policies"
            rows={list.data.items}
            empty="No policy yet."
            columns={[
              { head: 'Name', cell: (p) => p.name },
              { head: 'Registered model', cell: (p) => <Link href={`/app/registry/${p.registered_model_id}`}>{modelName(p.registered_model_id)}</Link> },
              { head: 'Triggers', cell: (p) => triggersText(p.triggers) },
              { head: 'Outcome', cell: (p) => p.outcome },
              { head: 'Gate', cell: (p) => `${p.gate.metric ?? 'sort metric'} better by ≥ ${fmtNum(p.gate.min_improvement)}` },
              { head: 'Cooldown', cell: (p) => fmtSecs(p.cooldown_secs) },
              { head: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
              {
                head: 'Actions',
                cell: (p) => (
                  <span class="row">
                    <button
                      type="button"
                      class="small"
                      disabled={busy}
                      aria-label={`Run now: ${p.name}`}
                      onClick={() => void run(() => post(`/api/mlops/retraining-policies/${p.id}/run`, {}).then(onRun))}
                    >
                      Run now
                    </button>
                    <button
                      type="button"
                      class="secondary small"
                      disabled={busy}
                      aria-label={`${p.enabled ? 'Disable' : 'Enable'} ${p.name}`}
                      onClick={() => act(() => patch(`/api/mlops/retraining-policies/${p.id}`, { enabled: !p.enabled }))}
                    >
                      {p.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button type="button" class="secondary small" aria-label={`Triggers of ${p.name}`} aria-pressed={shown === p.id} onClick={() => setShown(shown === p.id ? undefined : p.id)}>
                      Triggers
                    </button>
                    <ConfirmButton
                      class="secondary small"
                      disabled={busy}
                      aria-label={`Delete ${p.name}`}
                      confirm={{ question: `Delete the retraining policy '${p.name}'?`, consequence: 'Its triggers stop; models it trained stay.', confirmLabel: 'Delete' }}
                      onConfirm={() => act(() => del(`/api/mlops/retraining-policies/${p.id}`))}
                    >
                      Delete
                    </ConfirmButton>
                  </span>
                ),
              },
            ]}
          />
        ) : (
          !list.error && <Loading />
        )}
        {list.pager}
      </Section>
      {shown && <Triggers policyId={shown} />}
    </>
  );
}

function Triggers({ policyId }: { policyId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Trigger>>(`/api/mlops/retraining-policies/${policyId}/triggers${qs({ limit, offset })}`), [policyId]);
  return (
    <Section title="Triggers received">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Triggers received"
          rows={list.data.items}
          empty="No trigger yet."
          columns={[
            { head: 'When', cell: (t) => fmtDate(t.created_at) },
            { head: 'Kind', cell: (t) => t.kind },
            { head: 'Outcome', cell: (t) => <Status value={t.outcome} /> },
            { head: 'Reason', cell: (t) => t.reason ?? '–' },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

function evaluationText(e: Job['evaluation']): string {
  if (!e) return '–';
  const gain = e.improvement === null ? '' : ` (${e.improvement >= 0 ? '+' : ''}${fmtNum(e.improvement)})`;
  return `${e.metric}: champion ${fmtNum(e.champion)}, challenger ${fmtNum(e.challenger)}${gain} on ${fmtNum(e.holdout_rows)} rows, ${e.passed ? 'passed' : 'failed'}`;
}

function JobsTable({ jobs, canDecide, policyName, onChange }: { jobs: Job[]; canDecide: boolean; policyName: (id: string) => string; onChange: () => void }) {
  const { busy, error, run } = useAction();
  const decide = (j: Job, d: 'approve' | 'reject') => void run(() => post(`/api/mlops/retraining-jobs/${j.id}/${d}`, {}).then(onChange));
  const versionLink = (j: Job, id: string | null, label: string) =>
    id ? (
      <Link key={label} href={`/app/registry/${j.registered_model_id}?version=${id}`}>
        {label}
      </Link>
    ) : null;
  return (
    <>
      <ErrorBox error={error} />
      <Table
        caption="Retraining jobs"
        rows={jobs}
        empty="No retraining yet."
        columns={[
          { head: 'Started', cell: (j) => fmtDate(j.created_at) },
          { head: 'Policy', cell: (j) => policyName(j.policy_id) },
          { head: 'Trigger', cell: (j) => j.trigger.kind },
          { head: 'State', cell: (j) => <Status value={j.state} /> },
          { head: 'Evaluation', cell: (j) => evaluationText(j.evaluation) },
          {
            head: 'Links',
            cell: (j) => {
              const links = [
                j.experiment_id ? (
                  <Link key="e" href={`/app/experiments/${j.experiment_id}`}>
                    experiment
                  </Link>
                ) : null,
                versionLink(j, j.champion_version_id, 'champion'),
                versionLink(j, j.challenger_version_id, 'challenger'),
                j.rollout_id ? (
                  <Link key="r" href={`/app/rollouts/${j.rollout_id}`}>
                    rollout
                  </Link>
                ) : null,
              ].filter(Boolean);
              return links.length ? <span class="row wrap">{links}</span> : '–';
            },
          },
          { head: 'Reason', cell: (j) => j.reason ?? '–' },
          {
            head: 'Actions',
            cell: (j) =>
              j.state === 'awaiting_approval' && canDecide ? (
                <span class="row">
                  <button type="button" class="small" disabled={busy} aria-label="Approve the challenger" onClick={() => decide(j, 'approve')}>
                    Approve
                  </button>
                  <button type="button" class="secondary small" disabled={busy} aria-label="Reject the challenger" onClick={() => decide(j, 'reject')}>
                    Reject
                  </button>
                </span>
              ) : (
                '–'
              ),
          },
        ]}
      />
    </>
  );
}
