import { useState } from 'preact/hooks';
import { del, get, patch, post, put, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link, navigate, useLocation } from '../router';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Status, Table, Tabs, useAction, useAsync, usePaged, useTitle } from '../ui';
import { mayDecide, metricPairs, metricsLine, modelLabel, ProjectCrumb, useProject, useProjectModels, useWho } from './mlops-shared';
import { ConfirmButton } from '../confirm';

type RegisteredModel = ListItem<'/api/mlops/projects/{project_id}/registry'>;
type Version = ListItem<'/api/mlops/registry/{registered_model_id}/versions'>;
type TransitionRequest = ListItem<'/api/mlops/versions/{version_id}/transitions'>;
type RegistryEvent = ListItem<'/api/mlops/registry/{registered_model_id}/events'>;
type RegisteredModelCreate = Answer<'/api/mlops/projects/{project_id}/registry', 'post'>;
type ToStage = Answer<'/api/mlops/versions/{version_id}/transition', 'post'>['to_stage'];

const TO_STAGES: [ToStage, string][] = [
  ['production', 'Production'],
  ['staging', 'Staging'],
  ['archived', 'Archived'],
];

/** A project's model registry: its registered models, and a form to register a new name. */
export function RegistryPage({ projectId }: { projectId: string }) {
  const { project, error } = useProject(projectId);
  useTitle(project ? `Registry · ${project.name}` : 'Registry');
  const list = usePaged(({ limit, offset }) => get<Page<RegisteredModel>>(`/api/mlops/projects/${projectId}/registry${qs({ sort_field: 'name', sort_direction: 'asc', limit, offset })}`), [projectId]);
  if (error) return <ErrorBox error={error} />;
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={projectId} name={project?.name} tab="models" /> /
      </p>
      <h1>Model registry</h1>
      <NewRegisteredModel projectId={projectId} onCreated={list.reload} />
      <Section title="Registered models">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Registered models"
            rows={list.data.items}
            empty="No registered model yet."
            columns={[
              { head: 'Name', cell: (m) => <Link href={`/app/registry/${m.id}`}>{m.name}</Link> },
              { head: 'Latest version', cell: (m) => (m.latest_version ? `v${m.latest_version}` : '–') },
              { head: 'Aliases', cell: (m) => aliasText(m.aliases) },
              { head: 'Description', cell: (m) => m.description || '–' },
              { head: 'Updated', cell: (m) => fmtDate(m.updated_at) },
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

function aliasText(aliases: Record<string, number>): string {
  const entries = Object.entries(aliases);
  return entries.length ? entries.map(([a, v]) => `${a} → v${v}`).join(', ') : '–';
}

function NewRegisteredModel({ projectId, onCreated }: { projectId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post<RegisteredModelCreate>(`/api/mlops/projects/${projectId}/registry`, { name, ...(description ? { description } : {}) });
      setName('');
      setDescription('');
      onCreated();
    });
  };
  return (
    <Section title="Register a model">
      <form onSubmit={submit} class="grid2">
        <Field label="Name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <div>
          <button type="submit" disabled={busy}>
            Register
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}

const MODEL_TABS: [string, string][] = [
  ['versions', 'Versions'],
  ['events', 'Events'],
  ['settings', 'Settings'],
];

/** A registered model: its versions (with their metrics, aliases and transition requests) and its events. */
export function RegisteredModelPage({ id }: { id: string }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'versions';
  const rm = useAsync(() => get<GetBody<'/api/mlops/registry/{registered_model_id}'>>(`/api/mlops/registry/${id}`), [id]);
  const { project } = useProject(rm.data?.project_id);
  useTitle(rm.data ? `Registry · ${rm.data.name}` : 'Registered model');
  if (rm.error) return <ErrorBox error={rm.error} />;
  if (!rm.data) return <Loading />;
  const m = rm.data;
  return (
    <>
      <p class="crumbs">
        <ProjectCrumb projectId={m.project_id} name={project?.name} tab="models" /> / <Link href={`/app/projects/${m.project_id}/registry`}>Registry</Link> /
      </p>
      <h1>{m.name}</h1>
      {m.description && <p>{m.description}</p>}
      <p class="muted">
        {m.latest_version ? `${m.latest_version} version${m.latest_version === 1 ? '' : 's'}` : 'No version yet'} · aliases: {aliasText(m.aliases)}
        {m.auto_deploy_aliases.length > 0 && ` · deploy on move: ${m.auto_deploy_aliases.join(', ')}`}
      </p>
      <Tabs tabs={MODEL_TABS} current={tab} base={`/app/registry/${id}`} />
      {tab === 'versions' && <VersionsTab model={m} canDecide={mayDecide(project)} onChange={rm.reload} initial={query.get('version') ?? undefined} />}
      {tab === 'events' && <EventsTab model={m} />}
      {tab === 'settings' && <SettingsTab model={m} canDecide={mayDecide(project)} onChange={rm.reload} />}
    </>
  );
}

function VersionsTab({ model, canDecide, onChange, initial }: { model: RegisteredModel; canDecide: boolean; onChange: () => void; initial?: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Version>>(`/api/mlops/registry/${model.id}/versions${qs({ limit, offset })}`), [model.id]);
  const [picked, setPicked] = useState<string | undefined>(initial);
  const changed = () => {
    list.reload();
    onChange();
  };
  const versions = list.data?.items ?? [];
  const shown = versions.find((v) => v.id === picked) ?? versions[0];
  return (
    <>
      <NewVersion
        model={model}
        onCreated={(v) => {
          setPicked(v.id);
          changed();
        }}
      />
      <Section title="Versions">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Versions"
            rows={versions}
            empty="No version yet: add one from a trained model."
            columns={[
              { head: 'Version', cell: (v) => `v${v.version}` },
              { head: 'Stage', cell: (v) => <Status value={v.stage} /> },
              { head: 'Aliases', cell: (v) => v.aliases.join(', ') || '–' },
              { head: 'Model', cell: (v) => <Link href={`/app/models/${v.model_id}`}>model</Link> },
              { head: 'Metrics', cell: (v) => metricsLine(v.metrics) },
              { head: 'Created', cell: (v) => fmtDate(v.created_at) },
              {
                head: 'Details',
                cell: (v) => (
                  <button type="button" class="secondary small" aria-label={`Show v${v.version}`} aria-pressed={shown?.id === v.id} onClick={() => setPicked(v.id)}>
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
      {shown && <VersionDetail key={shown.id} model={model} version={shown} canDecide={canDecide} onChange={changed} />}
    </>
  );
}

function NewVersion({ model, onCreated }: { model: RegisteredModel; onCreated: (v: Version) => void }) {
  const models = useProjectModels(model.project_id);
  const [modelId, setModelId] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useAction();
  const items = models.data?.items ?? [];
  const chosen = items.some((m) => m.id === modelId) ? modelId : (items[0]?.id ?? '');
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const v = await post<Version>(`/api/mlops/registry/${model.id}/versions`, { model_id: chosen, ...(description ? { description } : {}) });
      setDescription('');
      onCreated(v);
    });
  };
  return (
    <Section title="New version">
      <ErrorBox error={models.error} />
      {models.data && items.length === 0 ? (
        <p class="muted">This project has no trained model yet: run an experiment first.</p>
      ) : (
        <form onSubmit={submit} class="grid2">
          <Select label="Trained model" value={chosen} options={items.map((m): [string, string] => [m.id, modelLabel(m)])} onChange={(e) => setModelId(e.currentTarget.value)} />
          <Field label="Version description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          <div>
            <button type="submit" disabled={busy || !chosen}>
              Add version
            </button>
          </div>
        </form>
      )}
      <ErrorBox error={error} />
    </Section>
  );
}

/** One version: its facts and metrics snapshot, its aliases, and its transition requests (asked and decided here). */
function VersionDetail({ model, version: v, canDecide, onChange }: { model: RegisteredModel; version: Version; canDecide: boolean; onChange: () => void }) {
  const requests = usePaged(({ limit, offset }) => get<Page<TransitionRequest>>(`/api/mlops/versions/${v.id}/transitions${qs({ limit, offset })}`), [v.id]);
  const who = useWho(model.project_id);
  const [toStage, setToStage] = useState<ToStage>('production');
  const [comment, setComment] = useState('');
  const [alias, setAlias] = useState('champion');
  const { busy, error, run } = useAction();
  const changed = () => {
    requests.reload();
    onChange();
  };
  const ask = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post(`/api/mlops/versions/${v.id}/transition`, { to_stage: toStage, ...(comment ? { comment } : {}) });
      setComment('');
      changed();
    });
  };
  const decide = (r: TransitionRequest, decision: 'approve' | 'reject') => void run(() => post(`/api/mlops/versions/${v.id}/transitions/${r.id}/${decision}`, {}).then(changed));
  const pointAlias = (e: Event) => {
    e.preventDefault();
    void run(() => put(`/api/mlops/registry/${model.id}/aliases/${encodeURIComponent(alias)}`, { version_id: v.id }).then(onChange));
  };
  const metrics = metricPairs(v.metrics);
  return (
    <>
      <Section title={`Version ${v.version}`}>
        <dl class="facts">
          <dt>Stage</dt>
          <dd>
            <Status value={v.stage} />
          </dd>
          <dt>Model</dt>
          <dd>
            <Link href={`/app/models/${v.model_id}`}>{v.model_id.slice(0, 8)}</Link>
          </dd>
          <dt>Experiment</dt>
          <dd>
            <Link href={`/app/experiments/${v.experiment_id}`}>{v.experiment_id.slice(0, 8)}</Link>
          </dd>
          <dt>Deployment</dt>
          <dd>{v.deployment_id ? <Link href={`/app/deployments/${v.deployment_id}`}>{v.deployment_id.slice(0, 8)}</Link> : '–'}</dd>
          <dt>Aliases</dt>
          <dd>
            {v.aliases.length === 0
              ? '–'
              : v.aliases.map((a) => (
                  <span key={a} class="row">
                    {a}
                    <ConfirmButton
                      class="secondary small"
                      disabled={busy}
                      aria-label={`Remove alias ${a}`}
                      confirm={{ question: `Remove the alias '${a}' from version ${v.version}?`, consequence: `Clients that load '${model.name}@${a}' no longer find it.`, confirmLabel: 'Remove' }}
                      onConfirm={() => void run(() => del(`/api/mlops/registry/${model.id}/aliases/${encodeURIComponent(a)}`).then(onChange))}
                    >
                      Remove
                    </ConfirmButton>
                  </span>
                ))}
          </dd>
          <dt>Registered</dt>
          <dd>
            {fmtDate(v.created_at)} by {who(v.created_by)}
          </dd>
          {v.description && (
            <>
              <dt>Description</dt>
              <dd>{v.description}</dd>
            </>
          )}
        </dl>
        <h3>Metrics when registered</h3>
        <Table
          caption={`Metrics of v${v.version}`}
          rows={metrics}
          empty="No metric recorded."
          columns={[
            { head: 'Metric', cell: (p) => p[0] },
            { head: 'Value', cell: (p) => p[1], num: true },
          ]}
        />
        <form onSubmit={pointAlias} class="row wrap">
          <Field label="Alias" list="registry-aliases" required value={alias} onInput={(e) => setAlias(e.currentTarget.value)} />
          <datalist id="registry-aliases">
            <option value="champion" />
            <option value="challenger" />
          </datalist>
          <button type="submit" class="secondary" disabled={busy}>
            Point alias here
          </button>
        </form>
      </Section>
      <Section title="Transition requests">
        <form onSubmit={ask} class="grid2">
          <Select label="To stage" value={toStage} options={TO_STAGES} onChange={(e) => setToStage(e.currentTarget.value as ToStage)} />
          <Field label="Comment" maxLength={2000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
          <div>
            <button type="submit" disabled={busy}>
              Request transition
            </button>
          </div>
        </form>
        {!canDecide && <p class="muted">An admin or the owner of the project approves or rejects requests.</p>}
        <ErrorBox error={requests.error ?? error} />
        {requests.data ? (
          <Table
            caption={`Transition requests of v${v.version}`}
            rows={requests.data.items}
            empty="No request yet."
            columns={[
              { head: 'To', cell: (r) => r.to_stage },
              { head: 'Status', cell: (r) => <Status value={r.status} /> },
              { head: 'Asked by', cell: (r) => who(r.requested_by) },
              { head: 'Comment', cell: (r) => r.comment || '–' },
              { head: 'Asked', cell: (r) => fmtDate(r.created_at) },
              { head: 'Decided', cell: (r) => (r.decided_at ? `${fmtDate(r.decided_at)} by ${who(r.decided_by)}` : '–') },
              { head: 'Deployment', cell: (r) => (r.deployment_id ? <Link href={`/app/deployments/${r.deployment_id}`}>open</Link> : '–') },
              {
                head: 'Actions',
                cell: (r) =>
                  r.status === 'pending' && canDecide ? (
                    <span class="row">
                      <ConfirmButton
                        class="small"
                        disabled={busy}
                        aria-label={`Approve the move to ${r.to_stage}`}
                        confirm={{
                          question: `Move version ${v.version} of '${model.name}' to ${r.to_stage}?`,
                          consequence: r.to_stage === 'production' ? "It is deployed to production; the project's current production deployment is archived." : `Its stage becomes ${r.to_stage}.`,
                          confirmLabel: 'Approve',
                          danger: r.to_stage === 'production' || r.to_stage === 'archived',
                        }}
                        onConfirm={() => decide(r, 'approve')}
                      >
                        Approve
                      </ConfirmButton>
                      <button type="button" class="secondary small" disabled={busy} aria-label={`Reject the move to ${r.to_stage}`} onClick={() => decide(r, 'reject')}>
                        Reject
                      </button>
                    </span>
                  ) : (
                    '–'
                  ),
              },
            ]}
          />
        ) : (
          !requests.error && <Loading />
        )}
        {requests.pager}
      </Section>
    </>
  );
}

function EventsTab({ model }: { model: RegisteredModel }) {
  const list = usePaged(({ limit, offset }) => get<Page<RegistryEvent>>(`/api/mlops/registry/${model.id}/events${qs({ limit, offset })}`), [model.id]);
  const who = useWho(model.project_id);
  return (
    <Section title="Events">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Registry events"
          rows={list.data.items}
          empty="Nothing has happened yet."
          columns={[
            { head: 'When', cell: (e) => fmtDate(e.created_at) },
            { head: 'Event', cell: (e) => e.kind },
            { head: 'By', cell: (e) => who(e.actor_id) },
            { head: 'Details', cell: (e) => eventDetails(e.details) },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

/** An event's details in one line: `key=value` for the plain values (ids shortened), nested ones as JSON. */
function eventDetails(details: Record<string, unknown>): string {
  const parts = Object.entries(details).map(([k, v]) => {
    if (typeof v === 'string') return `${k}=${/^[0-9a-f-]{36}$/.test(v) ? v.slice(0, 8) : v}`;
    return `${k}=${JSON.stringify(v)}`;
  });
  return parts.join(', ') || '–';
}

/** The registered model's description, the aliases that deploy when moved (admins and owners), and its deletion. */
function SettingsTab({ model, canDecide, onChange }: { model: RegisteredModel; canDecide: boolean; onChange: () => void }) {
  const [description, setDescription] = useState(model.description);
  const [autoDeploy, setAutoDeploy] = useState(model.auto_deploy_aliases.join(', '));
  const { busy, error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    const aliases = autoDeploy.split(/[\s,]+/).filter(Boolean);
    void run(() => patch(`/api/mlops/registry/${model.id}`, { description, ...(canDecide ? { auto_deploy_aliases: aliases } : {}) }).then(onChange));
  };
  return (
    <Section title="Settings">
      <form onSubmit={save} class="grid2">
        <Field label="Description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <Field
          label="Aliases that deploy when moved"
          hint={canDecide ? 'e.g. champion: pointing it at a version deploys that version to production' : 'Admins and owners set these'}
          disabled={!canDecide}
          value={autoDeploy}
          onInput={(e) => setAutoDeploy(e.currentTarget.value)}
        />
        <div>
          <button type="submit" disabled={busy}>
            Save
          </button>
        </div>
      </form>
      <div class="danger-zone">
        <p class="muted">Deleting removes the versions, aliases, requests and events (deployments stay); refused while a version is in production.</p>
        <ConfirmButton
          disabled={busy}
          confirm={{ question: `Delete the registered model '${model.name}'?`, consequence: 'Its versions, aliases, requests and events are deleted; deployments stay.', confirmLabel: 'Delete' }}
          onConfirm={() => void run(() => del(`/api/mlops/registry/${model.id}`).then(() => navigate(`/app/projects/${model.project_id}/registry`)))}
        >
          Delete {model.name}
        </ConfirmButton>
      </div>
      <ErrorBox error={error} />
    </Section>
  );
}
