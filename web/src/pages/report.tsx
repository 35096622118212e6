import { get, post, type Answer, type GetBody } from '../api';
import { Link, navigate } from '../router';
import { ErrorBox, fmtDate, Loading, Section, Status, useAsync, usePoll, useTitle } from '../ui';

type Report = GetBody<'/api/reports/{report_id}'>['report'];

/** A report: waits for its job, then shows it inline in a same-origin frame (the view route allows only that). */
/** Starts an HTML report of `kind` on `entityId` and opens its page, which follows it until it is stored. */
export async function openReport(projectId: string, kind: 'project' | 'experiment' | 'model' | 'deployment' | 'synthgen', entityId: string): Promise<void> {
  const r = await post<Answer<'/api/reports', 'post'>>('/api/reports', { project_id: projectId, kind, entity_id: entityId, options: { format: 'html' } });
  navigate(`/app/reports/${r.id}`);
}

export function ReportPage({ id }: { id: string }) {
  const r = useAsync(() => get<GetBody<'/api/reports/{report_id}'>>(`/api/reports/${id}`), [id]);
  const report: Report | undefined = r.data?.report;
  const pending = !!report && ['queued', 'running'].includes(report.status);
  usePoll(r.reload, 1000, pending);
  useTitle(report?.options.title ?? 'Report');
  if (r.error) return <ErrorBox error={r.error} />;
  if (!report) return <Loading />;
  const format = report.options.format ?? 'html';
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
        <Status value={report.status} /> · {format} · {fmtDate(report.created_at)}
        {typeof report.summary === 'string' && report.summary ? ` · ${report.summary}` : ''}
      </p>
      <ErrorBox error={report.error ?? undefined} />
      {pending && <Loading what="Generating the report" />}
      {report.status === 'succeeded' && format !== 'docx' && (
        <Section title="Report">
          <iframe class="report" src={`/api/reports/${id}/view`} title={`The ${report.kind} report`} />
        </Section>
      )}
    </>
  );
}
