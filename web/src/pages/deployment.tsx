import { useState } from 'preact/hooks';
import { AlertInbox } from './alerts';
import { openReport } from './report';
import { RolloutsTab } from './rollouts';
import { del, get, post, put, qs, type GetBody, type ListItem, type Page } from '../api';
import { BarsChart } from '../chart';
import { ConfirmButton, useConfirm } from '../confirm';
import { Link, navigate, useLocation } from '../router';
import { InferenceLogs, StoreInputsToggle } from './deployment-logs';
import { PredictForm } from './deployment-predict';
import { TrafficCharts } from './deployment-traffic';
import type { DeploymentRow } from './projects';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, Tabs, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';

type Deployment = GetBody<'/api/mlops/deployments/{deployment_id}'>['deployment'];
type Transition = ListItem<'/api/mlops/deployments/{deployment_id}/rollback-history'>;
type Drift = GetBody<'/api/mlops/deployments/{deployment_id}/drift'>;
type DriftScheduleAnswer = GetBody<'/api/mlops/deployments/{deployment_id}/drift-schedule'>;

const TABS: [string, string][] = [
  ['overview', 'Overview'],
  ['predict', 'Test prediction'],
  ['traffic', 'Traffic'],
  ['logs', 'Inference logs'],
  ['drift', 'Drift'],
  ['history', 'History'],
  ['alerts', 'Alerts'],
  ['rollouts', 'Rollouts'],
];

export function DeploymentPage({ id }: { id: string }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'overview';
  const d = useAsync(() => get<GetBody<'/api/mlops/deployments/{deployment_id}'>>(`/api/mlops/deployments/${id}`), [id]);
  useTitle(d.data ? `Deployment ${d.data.deployment.name}` : 'Deployment');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const { deployment: dep, model } = d.data;
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${dep.project_id}?tab=deployments`}>Project deployments</Link> /
      </p>
      <h1>{dep.name}</h1>
      <p class="muted">
        <Status value={dep.stage} /> · model <Link href={`/app/models/${model.id}`}>{model.name}</Link> ({model.algo}) · traffic {dep.config.traffic_percent ?? 100}% · since {fmtDate(dep.created_at)}
      </p>
      <Tabs tabs={TABS} current={tab} base={`/app/deployments/${id}`} />
      {tab === 'overview' && <Overview dep={dep} onChange={d.reload} />}
      {tab === 'predict' && (dep.is_active ? <PredictForm deploymentId={id} /> : <p class="muted">This deployment is archived: it answers no prediction.</p>)}
      {tab === 'traffic' && <TrafficCharts deploymentId={id} />}
      {tab === 'logs' && <InferenceLogs dep={dep} onChange={d.reload} />}
      {tab === 'drift' && <DriftTab dep={dep} onChange={d.reload} />}
      {tab === 'history' && <History id={id} />}
      {tab === 'rollouts' && <RolloutsTab dep={dep} onChange={d.reload} />}
      {tab === 'alerts' && (
        <>
          <AlertInbox projectId={dep.project_id} deploymentId={id} />
          <p>
            <Link href={`/app/projects/${dep.project_id}/alerts?tab=rules`}>Alert rules and channels of the project</Link>
          </p>
        </>
      )}
    </>
  );
}

function Overview({ dep, onChange }: { dep: Deployment; onChange: () => void }) {
  const [reason, setReason] = useState('');
  const { busy, error, run } = useAction();
  const act = (path: string, body: Record<string, unknown>, after?: () => void) =>
    void run(async () => {
      await post(`/api/mlops/deployments/${dep.id}/${path}`, { ...body, ...(reason ? { reason } : {}) });
      setReason('');
      (after ?? onChange)();
    });
  return (
    <>
      <Section title="Stage">
        <Field label="Reason (kept in the history)" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <div class="row wrap">
          {dep.stage === 'staging' && (
            <ConfirmButton
              class=""
              disabled={busy}
              confirm={{
                question: `Promote deployment '${dep.name}' to production?`,
                consequence: "It answers the project's production traffic; the current production deployment is archived.",
                confirmLabel: 'Promote',
              }}
              onConfirm={() => act('promote', { to_stage: 'production' })}
            >
              Promote to production
            </ConfirmButton>
          )}
          {dep.is_active && (
            <ConfirmButton
              disabled={busy}
              confirm={{ question: `Deactivate deployment '${dep.name}'?`, consequence: 'It stops answering predictions; nothing replaces it.', confirmLabel: 'Deactivate' }}
              onConfirm={() => act('deactivate', {}, () => navigate(`/app/projects/${dep.project_id}?tab=deployments`))}
            >
              Deactivate
            </ConfirmButton>
          )}
        </div>
        {dep.stage === 'production' && <Rollback dep={dep} busy={busy} onRollback={(to) => act('rollback', { to_deployment_id: to })} />}
        <ErrorBox error={error} />
      </Section>
      <Section title="Calling it">
        <p>
          <code>POST /api/mlops/deployments/{dep.id}/predict</code> with <code>{'{"inputs": {…}}'}</code> and an API key with <code>predict:deployments</code>. The request schema is at{' '}
          <a href={`/api/mlops/deployments/${dep.id}/api-docs`}>api-docs</a>. Drift compares logged inputs with the training data: add <code>{'"options": {"store_payload": true}'}</code> to a request,
          or turn on storing inputs for every request on the Inference logs tab.
        </p>
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(() => openReport(dep.project_id, 'deployment', dep.id))}>
          Deployment report
        </button>
      </Section>
    </>
  );
}

/**
 * Rollback picks one of the project's archived deployments (the API reactivates it as production). The project
 * list is read at its largest page (200, the API's bound); the newest archived ones come first.
 */
function Rollback({ dep, busy, onRollback }: { dep: Deployment; busy: boolean; onRollback: (to: string) => void }) {
  const list = useAsync(() => get<Page<DeploymentRow>>(`/api/mlops/projects/${dep.project_id}/deployments${qs({ limit: 200 })}`), [dep.project_id, dep.id]);
  const archived = (list.data?.items ?? []).filter((d) => d.id !== dep.id && d.stage === 'archived');
  const [to, setTo] = useState('');
  const { confirm, dialog } = useConfirm();
  const chosen = archived.some((d) => d.id === to) ? to : (archived[0]?.id ?? '');
  const target = archived.find((d) => d.id === chosen);
  if (list.error) return <ErrorBox error={list.error} />;
  if (!list.data) return <Loading />;
  if (archived.length === 0) return <p class="muted">No archived deployment of this project to roll back to.</p>;
  return (
    <form
      class="row wrap"
      onSubmit={(e) => {
        e.preventDefault();
        if (target)
          void confirm({
            question: `Roll production back to deployment '${target.name}'?`,
            consequence: `'${target.name}' (model ${target.model_name ?? 'no longer available'}) answers production traffic again; '${dep.name}' is archived.`,
            confirmLabel: 'Roll back',
          }).then((ok) => ok && onRollback(target.id));
      }}
    >
      {dialog}
      <Select
        label="Roll back to"
        value={chosen}
        options={archived.map((d) => [d.id, `${d.name} (archived, since ${fmtDate(d.created_at)})`] as [string, string])}
        onChange={(e) => setTo(e.currentTarget.value)}
      />
      <button type="submit" class="secondary" disabled={busy || !chosen}>
        Roll back
      </button>
    </form>
  );
}

/**
 * Drift per feature. The result is read only once a drift job of this deployment succeeded (before that the API
 * answers 404, which the page has no reason to provoke).
 */
function DriftTab({ dep, onChange }: { dep: Deployment; onChange: () => void }) {
  const id = dep.id;
  const jobs = useAsync(() => get<GetBody<'/api/jobs'>>(`/api/jobs${qs({ kind: 'drift_compute', entity_id: id, limit: 1 })}`), [id]);
  const last = jobs.data?.items[0];
  const drift = useAsync(() => (last?.status === 'succeeded' ? get<Drift>(`/api/mlops/deployments/${id}/drift`) : Promise.resolve(null)), [last?.id, last?.status]);
  const { busy, error, run } = useAction();
  usePoll(jobs.reload, 1500, !!last && ['queued', 'running'].includes(last.status));
  const r = drift.data;
  return (
    <Section
      title="Drift"
      actions={
        <button
          type="button"
          disabled={busy || (!!last && ['queued', 'running'].includes(last.status))}
          onClick={() => void run(() => post(`/api/mlops/deployments/${id}/drift/run`).then(jobs.reload))}
        >
          Compute drift
        </button>
      }
    >
      <p class="muted">PSI of the logged inputs (requests with store_payload) against the training data: below 0.1 low, 0.1 to 0.25 moderate, above high.</p>
      <StoreInputsToggle dep={dep} onChange={onChange} />
      <ErrorBox error={error ?? jobs.error ?? drift.error} />
      {last && last.status !== 'succeeded' && (
        <p>
          Last drift job: <Status value={last.status} />
        </p>
      )}
      {r && (
        <>
          <p>
            Overall <span class={`shift-${r.overall_status}`}>{r.overall_status}</span> (max PSI {fmtNum(r.max_psi, 3)}) from {r.inference_rows} logged rows against {r.reference_rows} training rows,{' '}
            {fmtDate(r.computed_at)}.
          </p>
          <BarsChart label="PSI per feature" items={Object.entries(r.features).map(([name, f]) => ({ name, value: f.psi }))} />
        </>
      )}
      <DriftScheduleForm id={id} />
    </Section>
  );
}

/** A drift job on a schedule (`PUT …/drift-schedule`): every so many minutes while the deployment is not archived. */
function DriftScheduleForm({ id }: { id: string }) {
  const current = useAsync(() => get<DriftScheduleAnswer>(`/api/mlops/deployments/${id}/drift-schedule`), [id]);
  const [minutes, setMinutes] = useState('60');
  const { busy, error, run } = useAction();
  const every = current.data?.drift_schedule?.interval_minutes;
  return (
    <form
      class="row wrap"
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => put(`/api/mlops/deployments/${id}/drift-schedule`, { interval_minutes: Number(minutes) }).then(current.reload));
      }}
    >
      <p role="status">{every ? `Drift runs every ${every} minutes.` : 'Drift runs when asked.'}</p>
      <Field label="Run drift every (minutes)" type="number" min={1} max={10080} required value={minutes} onInput={(e) => setMinutes(e.currentTarget.value)} />
      <button type="submit" class="secondary" disabled={busy}>
        Schedule
      </button>
      {every && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(() => del(`/api/mlops/deployments/${id}/drift-schedule`).then(current.reload))}>
          Stop the schedule
        </button>
      )}
      <ErrorBox error={error ?? current.error} />
    </form>
  );
}

function History({ id }: { id: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Transition>>(`/api/mlops/deployments/${id}/rollback-history${qs({ limit, offset })}`), [id]);
  return (
    <Section title="Stage history">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Stage transitions"
          rows={list.data.items}
          columns={[
            { head: 'When', cell: (t) => fmtDate(t.at) },
            { head: 'From', cell: (t) => t.from_stage ?? '–' },
            { head: 'To', cell: (t) => t.to_stage },
            { head: 'Model', cell: (t) => (t.model_name ? <Link href={`/app/models/${t.model_id}`}>{t.model_name}</Link> : <span class="muted">deleted model</span>) },
            { head: 'Reason', cell: (t) => t.reason ?? '–' },
          ]}
        />
      ) : (
        <Loading />
      )}
      {list.pager}
    </Section>
  );
}
