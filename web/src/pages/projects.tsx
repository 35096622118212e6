import { useState } from 'preact/hooks';
import { openReport } from './report';
import { ApiError, del, get, NO_PAGE, post, qs, upload, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useUser } from '../session';
import { PrivacyTab } from './privacy';
import { StudioTab } from './studio';
import { SynthgenTab } from './synthgen';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Progress, Section, Select, Status, Table, Tabs, useAction, useAsync, usePaged, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';
import { ModelTable } from './model-table';
import { memberRoleText, ProjectTeams } from './project-teams';
import { ProjectAuditLog } from './admin/audit';

export type Project = ListItem<'/api/projects'>;

const SORTS: [string, string][] = [
  ['created_at:desc', 'Newest first'],
  ['created_at:asc', 'Oldest first'],
  ['name:asc', 'Name A–Z'],
  ['name:desc', 'Name Z–A'],
  ['dataset_count:desc', 'Most datasets'],
  ['model_count:desc', 'Most models'],
];

export function ProjectsPage() {
  useTitle('Projects');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState('created_at:desc');
  const [field, dir] = sort.split(':');
  const list = usePaged(({ limit, offset }) => get<Page<Project>>(`/api/projects${qs({ search, sort_field: field, sort_direction: dir, limit, offset })}`), [search, sort]);
  return (
    <>
      <h1>Projects</h1>
      <CreateProject />
      <Section title="Your projects">
        <div class="row filters">
          <Field label="Search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          <Select label="Sort" value={sort} options={SORTS} onChange={(e) => setSort(e.currentTarget.value)} />
        </div>
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Projects"
            rows={list.data.items}
            empty="No project yet: create one above."
            columns={[
              { head: 'Name', cell: (p) => <Link href={`/app/projects/${p.id}`}>{p.name}</Link> },
              { head: 'Role', cell: (p) => p.role },
              { head: 'Datasets', cell: (p) => p.dataset_count, num: true },
              { head: 'Experiments', cell: (p) => p.experiment_count, num: true },
              { head: 'Models', cell: (p) => p.model_count, num: true },
              { head: 'Created', cell: (p) => fmtDate(p.created_at) },
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

function CreateProject() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useAction();
  return (
    <Section title="New project">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const p = await post<Answer<'/api/projects', 'post'>>('/api/projects', { name, description });
            navigate(`/app/projects/${p.id}`);
          });
        }}
      >
        <Field label="Project name" name="project-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Description" name="project-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Create project
        </button>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}

const TABS: [string, string][] = [
  ['datasets', 'Datasets'],
  ['experiments', 'Experiments'],
  ['models', 'Models'],
  ['deployments', 'Deployments'],
  ['reports', 'Reports'],
  ['privacy', 'Privacy'],
  ['synthgen', 'SynthGen'],
  ['studio', 'Studio'],
  ['members', 'Members'],
  ['timeline', 'Timeline'],
];

export function ProjectPage({ id }: { id: string }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'datasets';
  const project = useAsync(() => get<GetBody<'/api/projects/{project_id}'>>(`/api/projects/${id}`).then((r) => r.project), [id]);
  useTitle(project.data ? `Project ${project.data.name}` : 'Project');
  if (project.error) return <ErrorBox error={project.error} />;
  if (!project.data) return <Loading />;
  const p = project.data;
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> /
      </p>
      <div class="title-row">
        <h1>{p.name}</h1>
        <span class="row">
          <Link href={`/app/projects/${p.id}/registry`} class="button secondary">
            Registry
          </Link>
          <Link href={`/app/projects/${p.id}/ab-tests`} class="button secondary">
            A/B tests
          </Link>
          <Link href={`/app/projects/${p.id}/retraining`} class="button secondary">
            Retraining
          </Link>
          <Link href={`/app/projects/${p.id}/alerts`} class="button secondary">
            Alerts
          </Link>
          <a class="button secondary" href={`/api/projects/${p.id}/export`} download>
            Export ZIP
          </a>
        </span>
      </div>
      {p.description && <p>{p.description}</p>}
      <p class="muted">
        Your role: {p.role} · {p.dataset_count} datasets · {p.experiment_count} experiments · {p.model_count} models
      </p>
      <Tabs tabs={TABS} current={tab} base={`/app/projects/${p.id}`} />
      {tab === 'datasets' && <DatasetsTab projectId={p.id} />}
      {tab === 'experiments' && <ExperimentsTab projectId={p.id} />}
      {tab === 'models' && <ModelTable projectId={p.id} />}
      {tab === 'deployments' && <DeploymentsTab projectId={p.id} />}
      {tab === 'reports' && <ReportsTab projectId={p.id} />}
      {tab === 'privacy' && <PrivacyTab projectId={p.id} />}
      {tab === 'synthgen' && <SynthgenTab projectId={p.id} />}
      {tab === 'studio' && <StudioTab projectId={p.id} />}
      {tab === 'members' && <MembersTab projectId={p.id} owner={p.role === 'owner'} myRole={p.role} />}
      {tab === 'timeline' && <TimelineTab projectId={p.id} />}
    </>
  );
}

type DatasetRow = ListItem<'/api/datasets'>;

function DatasetsTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<DatasetRow>>(`/api/datasets${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  return (
    <>
      <UploadDataset projectId={projectId} />
      <Section title="Datasets">
        <ErrorBox error={list.error} />
        {list.data ? (
          // Each tab's table is named apart from its section: two regions of one name are one ambiguous landmark.
          <Table
            caption="Datasets of this project"
            rows={list.data.items}
            empty="No dataset yet: upload a CSV or Parquet file above."
            columns={[
              { head: 'Name', cell: (d) => <Link href={`/app/datasets/${d.id}`}>{d.name}</Link> },
              { head: 'Rows', cell: (d) => fmtNum(d.rows), num: true },
              { head: 'Columns', cell: (d) => d.columns, num: true },
              { head: 'Updated', cell: (d) => fmtDate(d.updated_at) },
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

/** Upload with a progress bar from XMLHttpRequest's upload events; the server answers once the file is stored and checked. */
function UploadDataset({ projectId }: { projectId: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const { busy, error, run } = useAction();
  return (
    <Section title="Upload a dataset">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          const form = new FormData();
          form.set('project_id', projectId);
          form.set('name', name || file.name.replace(/\.[^.]+$/, ''));
          form.set('file', file);
          setProgress(0);
          void run(async () => {
            try {
              const r = await upload<Answer<'/api/datasets/upload', 'post'>>('/api/datasets/upload', form, setProgress);
              navigate(`/app/datasets/${r.id}`);
            } finally {
              setProgress(null);
            }
          });
        }}
      >
        <label class="field">
          <span>File (CSV or Parquet)</span>
          <input type="file" name="file" accept=".csv,.tsv,.txt,.parquet" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </label>
        <Field label="Dataset name" name="dataset-name" placeholder={file ? file.name.replace(/\.[^.]+$/, '') : ''} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" disabled={busy || !file}>
          Upload
        </button>
      </form>
      {progress !== null && (
        <>
          <Progress value={progress} label="Upload progress" />
          {progress >= 1 && <p class="muted">Sent; the server is checking the file…</p>}
        </>
      )}
      <ErrorBox error={error} />
    </Section>
  );
}

export type ExperimentRow = ListItem<'/api/experiments'>;

function ExperimentsTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<ExperimentRow>>(`/api/experiments${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  return (
    <Section
      title="Experiments"
      actions={
        <Link class="button" href={`/app/experiments/new?project=${projectId}`}>
          New experiment
        </Link>
      }
    >
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Experiments of this project"
          rows={list.data.items}
          empty="No experiment yet."
          columns={[
            { head: 'Name', cell: (x) => <Link href={`/app/experiments/${x.id}`}>{x.name}</Link> },
            {
              head: 'Status',
              cell: (x) => (
                <>
                  <Status value={x.status} /> {x.progress.summary}
                  {x.warnings.length > 0 && <span class="warn"> · possible leakage: {x.warnings.map((w) => w.column).join(', ')}</span>}
                </>
              ),
            },
            { head: 'Dataset', cell: (x) => `${x.dataset_name} v${x.dataset_version}` },
            { head: 'Target', cell: (x) => `${x.target_column} (${x.problem_kind})` },
            { head: 'Models', cell: (x) => x.model_count, num: true },
            { head: 'Best score', cell: (x) => (x.best_score === null ? '–' : `${x.best_score_metric} ${fmtNum(x.best_score)}`), num: true },
            { head: 'Best', cell: (x) => (x.best_model_id ? <Link href={`/app/models/${x.best_model_id}`}>{x.best_model_algo ?? 'best model'}</Link> : '–') },
            { head: 'Created', cell: (x) => fmtDate(x.created_at) },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

export type DeploymentRow = ListItem<'/api/mlops/projects/{project_id}/deployments'>;

function DeploymentsTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<DeploymentRow>>(`/api/mlops/projects/${projectId}/deployments${qs({ limit, offset })}`), [projectId]);
  return (
    <Section title="Deployments">
      <p class="muted">Deploy a model from its page.</p>
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Deployments of this project"
          rows={list.data.items}
          empty="No deployment yet."
          columns={[
            { head: 'Name', cell: (d) => <Link href={`/app/deployments/${d.id}`}>{d.name}</Link> },
            { head: 'Stage', cell: (d) => <Status value={d.stage} /> },
            { head: 'Active', cell: (d) => (d.is_active ? 'yes' : 'no') },
            { head: 'Model', cell: (d) => (d.model_name ? <Link href={`/app/models/${d.model_id}`}>{d.model_name}</Link> : <span class="muted">deleted model</span>) },
            { head: 'Created', cell: (d) => fmtDate(d.created_at) },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

type ReportRow = ListItem<'/api/reports'>;

function ReportsTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<ReportRow>>(`/api/reports${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const { busy, error, run } = useAction();
  return (
    <Section
      title="Reports"
      actions={
        <button type="button" disabled={busy} onClick={() => void run(() => openReport(projectId, 'project', projectId))}>
          Project report
        </button>
      }
    >
      <ErrorBox error={list.error ?? error} />
      {list.data ? (
        <Table
          caption="Reports of this project"
          rows={list.data.items}
          empty="No report yet: generate one here or from an experiment, model or deployment."
          columns={[
            { head: 'Report', cell: (r) => <Link href={`/app/reports/${r.id}`}>{r.options?.title ?? `${r.kind} report`}</Link> },
            { head: 'Format', cell: (r) => r.options?.format ?? 'html' },
            { head: 'Status', cell: (r) => <Status value={r.status} /> },
            { head: 'Created', cell: (r) => fmtDate(r.created_at) },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

type Member = ListItem<'/api/projects/{project_id}/members'>;
type Invitation = ListItem<'/api/projects/{project_id}/invitations'>;

function MembersTab({ projectId, owner, myRole }: { projectId: string; owner: boolean; myRole: string }) {
  const { user } = useUser();
  const members = usePaged(({ limit, offset }) => get<Page<Member>>(`/api/projects/${projectId}/members${qs({ limit, offset })}`), [projectId]);
  // Pending invitations are the owner's to see and withdraw: nobody else asks (and gets a 403).
  const invitations = usePaged(({ limit, offset }) => (owner ? get<Page<Invitation>>(`/api/projects/${projectId}/invitations${qs({ limit, offset })}`) : Promise.resolve(NO_PAGE)), [projectId, owner]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction();
  const reload = () => {
    members.reload();
    invitations.reload();
  };
  return (
    <>
      <Section title="Members">
        <ErrorBox error={members.error ?? error} />
        {members.data ? (
          <Table
            caption="Project members"
            rows={members.data.items}
            columns={[
              { head: 'Name', cell: (m) => m.name },
              { head: 'Email', cell: (m) => m.email },
              { head: 'Role', cell: memberRoleText },
              {
                head: 'Action',
                // The owner manages members; anyone else may only leave. Access through a team ends with the team's.
                cell: (m) =>
                  m.via_team ? (
                    'Through a team'
                  ) : m.user_id === user.id ? (
                    <ConfirmButton
                      class="secondary small"
                      aria-label="Leave the project"
                      confirm={{ question: 'Leave this project?', consequence: 'You lose access to it until an owner adds you again.', confirmLabel: 'Leave' }}
                      onConfirm={() => void run(() => del(`/api/projects/${projectId}/members/${m.user_id}`).then(() => navigate('/app/projects')))}
                    >
                      Leave
                    </ConfirmButton>
                  ) : owner ? (
                    <ConfirmButton
                      class="secondary small"
                      aria-label={`Remove ${m.email}`}
                      confirm={{ question: `Remove ${m.email} from the project?`, consequence: 'They lose access to it.', confirmLabel: 'Remove' }}
                      onConfirm={() => void run(() => del(`/api/projects/${projectId}/members/${m.user_id}`).then(reload))}
                    >
                      Remove
                    </ConfirmButton>
                  ) : (
                    '–'
                  ),
              },
            ]}
          />
        ) : (
          !members.error && <Loading />
        )}
        {members.pager}
      </Section>
      <ProjectTeams projectId={projectId} myRole={myRole} onChange={members.reload} />
      {owner ? (
        <Section title="Add, change or invite a member">
          <form
            class="row wrap"
            onSubmit={(e) => {
              e.preventDefault();
              setNote('');
              void run(async () => {
                // A registered user is added at once; an address without an account is invited by a mailed link.
                try {
                  await post(`/api/projects/${projectId}/members`, { email, role });
                  setNote(`${email} is now ${role}.`);
                } catch (err) {
                  if (!(err instanceof ApiError && err.status === 404 && err.detail === 'User not found')) throw err;
                  await post('/api/auth/invite', { project_id: projectId, email, role });
                  setNote(`No account has ${email} yet: an invitation link was mailed to it.`);
                }
                setEmail('');
                reload();
              });
            }}
          >
            <Field label="Email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            <Select label="Role" value={role} options={['viewer', 'editor', 'admin', 'owner']} onChange={(e) => setRole(e.currentTarget.value)} />
            <button type="submit" disabled={busy}>
              Add
            </button>
          </form>
          {note && <p role="status">{note}</p>}
        </Section>
      ) : (
        <p class="muted">Only the project's owners add members and invite people.</p>
      )}
      {invitations.error && <ErrorBox error={invitations.error} />}
      {invitations.data && invitations.data.total > 0 && (
        <Section title="Pending invitations">
          <Table
            caption="Invitations waiting to be accepted"
            rows={invitations.data.items}
            columns={[
              { head: 'Email', cell: (i) => i.email },
              { head: 'Role', cell: (i) => i.role },
              { head: 'Expires', cell: (i) => fmtDate(i.expires_at) },
              {
                head: 'Action',
                cell: (i) => (
                  <ConfirmButton
                    class="secondary small"
                    aria-label={`Withdraw the invitation of ${i.email}`}
                    confirm={{ question: `Withdraw the invitation of ${i.email}?`, consequence: 'The mailed link stops working.', confirmLabel: 'Withdraw' }}
                    onConfirm={() => void run(() => del(`/api/projects/${projectId}/invitations/${i.id}`).then(reload))}
                  >
                    Withdraw
                  </ConfirmButton>
                ),
              },
            ]}
          />
          {invitations.pager}
        </Section>
      )}
      {owner && <ProjectAuditLog projectId={projectId} />}
    </>
  );
}

function TimelineTab({ projectId }: { projectId: string }) {
  const t = useAsync(() => get<GetBody<'/api/projects/{project_id}/timeline'>>(`/api/projects/${projectId}/timeline`), [projectId]);
  if (t.error) return <ErrorBox error={t.error} />;
  if (!t.data) return <Loading />;
  return (
    <Section title="Timeline">
      {t.data.events.length === 0 && <p class="muted">Nothing happened yet.</p>}
      <ol class="timeline">
        {t.data.events.map((e) => (
          <li key={`${e.type}-${e.id}`}>
            <time dateTime={e.timestamp}>{fmtDate(e.timestamp)}</time>{' '}
            {e.type === 'dataset' ? (
              <span>
                Dataset <strong>{e.name}</strong> version {e.version} ({fmtNum(e.rows)} rows)
              </span>
            ) : (
              <span>
                Experiment <Link href={`/app/experiments/${e.id}`}>{e.name}</Link> on {e.target_column}: <Status value={e.status} />
                {e.best_model_type ? `, best ${e.best_model_type}` : ''}
              </span>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
