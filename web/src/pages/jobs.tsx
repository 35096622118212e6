import { useState } from 'preact/hooks';
import { get, post, qs, type GetBody, type ListItem, type Page } from '../api';
import { Link, useLocation } from '../router';
import { ErrorBox, fmtDate, Loading, Progress, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';

type Job = ListItem<'/api/jobs'>;
type DatasetVersion = GetBody<'/api/dataset-versions/{dataset_version_id}'>;
const ACTIVE = ['queued', 'running'];

/**
 * What each kind of job works on, by its `entity_id` (services/job-kinds.ts): the page to open and its name. A
 * synthgen generation's own row shares the job's id; a dataset profile names a version, whose dataset is looked up.
 */
const SUBJECTS: Record<string, (j: Job) => { href: string; text: string } | null> = {
  project_export: (j) => ({ href: `/app/projects/${j.entity_id}`, text: 'project' }),
  automl_train: (j) => ({ href: `/app/experiments/${j.entity_id}`, text: 'experiment' }),
  drift_compute: (j) => ({ href: `/app/deployments/${j.entity_id}?tab=drift`, text: 'deployment (drift)' }),
  report_generate: (j) => ({ href: `/app/reports/${j.entity_id}`, text: 'report' }),
  privacy_detect: (j) => ({ href: `/app/privacy/sessions/${j.entity_id}`, text: 'privacy session' }),
  privacy_transform: (j) => ({ href: `/app/privacy/sessions/${j.entity_id}`, text: 'privacy session' }),
  synthgen_train: (j) => ({ href: `/app/synthgen/models/${j.entity_id}`, text: 'synthetic-data model' }),
  synthgen_generate: (j) => ({ href: `/app/synthgen/jobs/${j.id}`, text: 'synthetic-data generation' }),
  retraining_run: (j) => ({ href: `/app/projects/${j.project_id}/retraining`, text: 'retraining' }),
};

/** The link from a job to what it belongs to; the last 8 characters of the id tell rows of one kind apart. */
function JobSubject({ job }: { job: Job }) {
  if (!job.entity_id) return <>–</>;
  if (job.kind === 'dataset_profile') return <DatasetVersionLink versionId={job.entity_id} />;
  if (job.kind === 'builder_run') return <BuilderRunLink job={job} />;
  const s = SUBJECTS[job.kind]?.(job);
  if (!s) return <>–</>;
  return (
    <Link href={s.href}>
      {s.text} …{(job.entity_id ?? '').slice(-8)}
    </Link>
  );
}

/** A dataset version's job links to its dataset's page, named by the version number. */
function DatasetVersionLink({ versionId }: { versionId: string }) {
  const v = useAsync(() => get<DatasetVersion>(`/api/dataset-versions/${versionId}`).catch(() => null), [versionId]);
  if (!v.data) return <>{v.loading ? '…' : 'dataset version (deleted)'}</>;
  return <Link href={`/app/datasets/${v.data.dataset_id}?tab=versions`}>dataset version {v.data.version}</Link>;
}

/** A `builder_run` job links to its builder session page (execute, finalize and replay alike), from its creation on. */
function BuilderRunLink({ job }: { job: Job }) {
  const session = job.builder_session_id;
  if (!session) return <>builder run …{(job.entity_id ?? '').slice(-8)}</>;
  return <Link href={`/app/projects/${job.project_id}/builder/${session}`}>builder session …{session.slice(-8)}</Link>;
}

export function JobsPage() {
  useTitle('Jobs');
  const { query } = useLocation();
  const focus = query.get('focus');
  const [status, setStatus] = useState('');
  const list = usePaged(({ limit, offset }) => get<Page<Job>>(`/api/jobs${qs({ status, limit, offset })}`), [status]);
  const { error, run } = useAction();
  usePoll(list.reload, 2000, !!list.data?.items.some((j) => ACTIVE.includes(j.status)));
  return (
    <>
      <h1>Jobs</h1>
      <Section title="Background jobs">
        <div class="row filters">
          <Select label="Status" value={status} options={[['', 'any'], 'queued', 'running', 'succeeded', 'failed', 'canceled']} onChange={(e) => setStatus(e.currentTarget.value)} />
        </div>
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="Jobs"
            rows={list.data.items}
            empty="No job."
            columns={[
              { head: 'Kind', cell: (j) => <span class={j.id === focus ? 'focus' : undefined}>{j.kind}</span> },
              { head: 'Belongs to', cell: (j) => <JobSubject job={j} /> },
              { head: 'Status', cell: (j) => <Status value={j.status} /> },
              { head: 'Progress', cell: (j) => <Progress value={j.progress / 100} label={`Progress of the ${j.kind} job`} /> },
              { head: 'Message', cell: (j) => j.error ?? j.message ?? '–' },
              { head: 'Created', cell: (j) => fmtDate(j.created_at) },
              { head: 'Finished', cell: (j) => fmtDate(j.finished_at) },
              {
                head: 'Links',
                cell: (j) => (
                  <span class="row">
                    {j.temporal_ui_url && (
                      <a href={j.temporal_ui_url} target="_blank" rel="noopener noreferrer">
                        Temporal UI
                      </a>
                    )}
                    {ACTIVE.includes(j.status) && (
                      <button type="button" class="secondary small" aria-label={`Cancel the ${j.kind} job`} onClick={() => void run(() => post(`/api/jobs/${j.id}/cancel`).then(list.reload))}>
                        Cancel
                      </button>
                    )}
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
    </>
  );
}
