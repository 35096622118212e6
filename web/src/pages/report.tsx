import { useState } from 'preact/hooks';
import { get, post, qs, type Answer, type GetBody } from '../api';
import { Link, navigate, useLocation } from '../router';
import { ErrorBox, Field, fmtDate, Loading, Progress, Section, Select, Status, useAction, useAsync, usePoll, useTitle } from '../ui';

type Report = GetBody<'/api/reports/{report_id}'>['report'];
type Job = GetBody<'/api/jobs/{job_id}'>['job'];
export type ReportKind = 'project' | 'experiment' | 'model' | 'deployment' | 'synthgen';
type Format = 'html' | 'pdf' | 'docx';

/** The body of `POST /api/reports` (services/reports/options.ts): format, title, comments and the section switches. */
type ReportOptions = { format: Format; title?: string; comments?: string; llm_insights: boolean } & Partial<Record<Switch, boolean>>;

type Switch =
  | 'include_metrics'
  | 'include_charts'
  | 'include_hyperparameters'
  | 'include_data_summary'
  | 'include_leaderboard'
  | 'include_feature_importance'
  | 'include_confusion_matrix'
  | 'include_roc_curve'
  | 'include_learning_curves';

/** What each switch leaves in or out, in the reader's words. */
const SWITCH_LABELS: Record<Switch, string> = {
  include_data_summary: 'Data summary',
  include_metrics: 'Metrics',
  include_charts: 'Charts',
  include_leaderboard: 'Leaderboard / best models',
  include_feature_importance: 'Variable importance',
  include_confusion_matrix: 'Confusion matrix',
  include_roc_curve: 'ROC and precision-recall curves',
  include_learning_curves: 'Learning curves',
  include_hyperparameters: 'Hyperparameters',
};

/** The switches that change something in each kind's document (services/reports/kinds); the API takes them all. */
const KIND_SWITCHES: Record<ReportKind, Switch[]> = {
  project: ['include_data_summary', 'include_leaderboard', 'include_charts'],
  experiment: [
    'include_data_summary',
    'include_leaderboard',
    'include_feature_importance',
    'include_metrics',
    'include_confusion_matrix',
    'include_roc_curve',
    'include_learning_curves',
    'include_charts',
    'include_hyperparameters',
  ],
  model: [
    'include_data_summary',
    'include_metrics',
    'include_confusion_matrix',
    'include_roc_curve',
    'include_learning_curves',
    'include_feature_importance',
    'include_charts',
    'include_hyperparameters',
  ],
  deployment: ['include_charts'],
  synthgen: ['include_data_summary', 'include_metrics', 'include_charts', 'include_hyperparameters'],
};

const KINDS = Object.keys(KIND_SWITCHES) as ReportKind[];
const FORMATS: [Format, string][] = [
  ['html', 'HTML (view in the browser)'],
  ['pdf', 'PDF'],
  ['docx', 'DOCX (Word)'],
];

/** Opens the request form for a report of `kind` on `entityId` (the project, experiment, model, deployment and synthgen pages' "report" buttons). */
export function openReport(projectId: string, kind: ReportKind, entityId: string): Promise<void> {
  navigate(`/app/reports/new${qs({ project_id: projectId, kind, entity_id: entityId })}`);
  return Promise.resolve();
}

/** `/app/reports/new?…` asks for a report; `/app/reports/{id}` follows one. */
export function ReportPage({ id }: { id: string }) {
  return id === 'new' ? <RequestReport /> : <ReportView id={id} />;
}

/** Queues a report with its options and opens its page. */
async function requestReport(projectId: string, kind: ReportKind, entityId: string, options: ReportOptions): Promise<void> {
  const r = await post<Answer<'/api/reports', 'post'>>('/api/reports', { project_id: projectId, kind, entity_id: entityId, options });
  navigate(`/app/reports/${r.id}`);
}

/** The request form: every option the API has, the kind's section switches on by default as the API has them. */
function RequestReport() {
  const { query } = useLocation();
  const projectId = query.get('project_id') ?? '';
  const kindParam = query.get('kind') ?? '';
  const entityId = query.get('entity_id') ?? '';
  const kind = (KINDS as string[]).includes(kindParam) ? (kindParam as ReportKind) : null;
  const [format, setFormat] = useState<Format>('html');
  const [title, setTitle] = useState('');
  const [comments, setComments] = useState('');
  const [llm, setLlm] = useState(false);
  const [off, setOff] = useState<Set<Switch>>(new Set());
  const { busy, error, run } = useAction();
  useTitle(kind ? `New ${kind} report` : 'New report');
  if (!kind || !projectId || !entityId) return <ErrorBox error="A report needs a project, a kind and what it is about: start it from that page's report button." />;
  const switches = KIND_SWITCHES[kind];
  const submit = (e: Event) => {
    e.preventDefault();
    const options: ReportOptions = { format, llm_insights: llm, ...Object.fromEntries(switches.map((s) => [s, !off.has(s)])) };
    if (title.trim()) options.title = title.trim();
    if (comments.trim()) options.comments = comments;
    void run(() => requestReport(projectId, kind, entityId, options));
  };
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${projectId}?tab=reports`}>Project reports</Link> /
      </p>
      <h1>New {kind} report</h1>
      <Section title="Report options">
        <form class="stack" onSubmit={submit}>
          <div class="grid2">
            <Select label="Format" name="format" options={FORMATS} value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)} />
            <Field label="Title" name="title" maxLength={200} placeholder={`${kind[0].toUpperCase()}${kind.slice(1)} report`} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          </div>
          <label class="field">
            <span>Comments</span>
            <textarea name="comments" rows={4} maxLength={20000} value={comments} onInput={(e) => setComments(e.currentTarget.value)} />
            <small class="muted">Printed first, as a section of its own; a blank line starts a new paragraph.</small>
          </label>
          <fieldset class="scopes">
            <legend>Sections</legend>
            {switches.map((s) => (
              <label key={s} class="check">
                <input type="checkbox" checked={!off.has(s)} onChange={(e) => setOff((prev) => toggled(prev, s, !e.currentTarget.checked))} />
                {SWITCH_LABELS[s]}
              </label>
            ))}
          </fieldset>
          <label class="check">
            <input type="checkbox" checked={llm} onChange={(e) => setLlm(e.currentTarget.checked)} /> Written insights from an LLM (needs a provider configured on the server)
          </label>
          <ErrorBox error={error} />
          <div class="row wrap">
            <button type="submit" disabled={busy}>
              Generate report
            </button>
          </div>
        </form>
      </Section>
    </>
  );
}

function toggled(set: Set<Switch>, s: Switch, on: boolean): Set<Switch> {
  const next = new Set(set);
  if (on) next.add(s);
  else next.delete(s);
  return next;
}

/** The options a report was made with, as a new request takes them (the stored ones are the resolved request). */
function sameOptions(report: Report): ReportOptions {
  const stored = report.options as Record<string, unknown>;
  const options: ReportOptions = { format: (stored.format as Format) ?? 'html', llm_insights: stored.llm_insights === true };
  for (const s of Object.keys(SWITCH_LABELS) as Switch[]) if (typeof stored[s] === 'boolean') options[s] = stored[s] as boolean;
  if (typeof stored.title === 'string') options.title = stored.title;
  if (typeof stored.comments === 'string') options.comments = stored.comments;
  return options;
}

/** A report: follows its job (progress and step), shows a failure with a retry, then shows it inline in a same-origin frame. */
function ReportView({ id }: { id: string }) {
  const r = useAsync(() => get<GetBody<'/api/reports/{report_id}'>>(`/api/reports/${id}`), [id]);
  const report: Report | undefined = r.data?.report;
  const pending = !!report && ['queued', 'running'].includes(report.status);
  const jobId = report?.job_id ?? null;
  const job = useAsync(() => (jobId && pending ? get<GetBody<'/api/jobs/{job_id}'>>(`/api/jobs/${jobId}`) : Promise.resolve(undefined)), [jobId, report?.status]);
  usePoll(
    () => {
      r.reload();
      job.reload();
    },
    1000,
    pending,
  );
  const retry = useAction();
  useTitle(report?.options.title ?? 'Report');
  if (r.error) return <ErrorBox error={r.error} />;
  if (!report) return <Loading />;
  const format = report.options.format ?? 'html';
  const failed = report.status === 'failed' || report.status === 'canceled';
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${report.project_id}?tab=reports`}>Project reports</Link> /
      </p>
      <div class="title-row">
        <h1>{report.options.title ?? `${report.kind[0].toUpperCase()}${report.kind.slice(1)} report`}</h1>
        {report.status === 'succeeded' && (
          <a class="button secondary" href={`/api/reports/${id}/download`} download>
            Download {format.toUpperCase()}
          </a>
        )}
      </div>
      <p class="muted" aria-live="polite">
        <Status value={report.status} /> · {format.toUpperCase()} · {fmtDate(report.created_at)}
      </p>
      {pending && <JobProgress job={job.data?.job} />}
      {failed && (
        <Section title="The report was not made">
          <ErrorBox error={report.error ?? `The report job was ${report.status}.`} />
          <ErrorBox error={retry.error} />
          <div class="row wrap">
            <button type="button" disabled={retry.busy} onClick={() => void retry.run(() => requestReport(report.project_id, report.kind, report.entity_id, sameOptions(report)))}>
              Retry
            </button>
          </div>
        </Section>
      )}
      {report.status === 'succeeded' && format !== 'docx' && (
        <Section title="Report">
          <iframe class="report" src={`/api/reports/${id}/view`} title={`The ${report.kind} report`} />
        </Section>
      )}
      {report.status === 'succeeded' && format === 'docx' && <p>The DOCX is ready: download it to open it in Word or LibreOffice.</p>}
    </>
  );
}

/** The job's progress bar and what it is doing now ("rendering PDF"). */
function JobProgress({ job }: { job: Job | undefined }) {
  if (!job) return <Loading what="Waiting for the report job" />;
  return (
    <div class="stack" aria-live="polite">
      <Progress value={job.progress / 100} label="Report progress" />
      <p class="muted">{job.status === 'queued' ? 'Queued: waiting for a worker.' : `Step: ${job.message ?? 'starting'}`}</p>
    </div>
  );
}
