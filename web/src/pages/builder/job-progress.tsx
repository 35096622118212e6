import { useEffect, useRef } from 'preact/hooks';
import { get, post, qs, type GetBody, type ListItem, type Page } from '../../api';
import { ErrorBox, Loading, Progress, useAction, useAsync, usePoll } from '../../ui';

export type Job = GetBody<'/api/jobs/{job_id}'>['job'];
const ACTIVE: Job['status'][] = ['queued', 'running'];

/**
 * A builder job followed to its end: its progress bar and what it does now, polled every second, with Cancel.
 * `onDone` runs once when the job stops (succeeded, failed or canceled), with the job as it ended.
 */
export function JobProgress({ jobId, label, onDone }: { jobId: string; label: string; onDone: (job: Job) => void }) {
  const job = useAsync(() => get<GetBody<'/api/jobs/{job_id}'>>(`/api/jobs/${jobId}`).then((r) => r.job), [jobId]);
  const active = !job.data || ACTIVE.includes(job.data.status);
  const { busy, error, run } = useAction();
  usePoll(job.reload, 1000, active && !job.error);
  const reported = useRef(false);
  useEffect(() => {
    if (job.data && !active && !reported.current) {
      reported.current = true;
      onDone(job.data);
    }
  }, [job.data?.status]);
  const j = job.data;
  return (
    <div class="stack" aria-live="polite">
      <ErrorBox error={job.error ?? error} />
      {j && <Progress value={j.progress / 100} label={label} />}
      <div class="row wrap">
        <span class="muted">{!j ? 'Starting…' : j.status === 'queued' ? 'Queued: waiting for a worker.' : (j.error ?? j.message ?? j.status)}</span>
        {j && active && (
          <button type="button" class="secondary small" aria-label={`Cancel: ${label}`} disabled={busy} onClick={() => void run(() => post(`/api/jobs/${jobId}/cancel`).then(job.reload))}>
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * The progress of the latest `builder_run` job on a step or session (its `entity_id`), for a page opened while the job
 * runs: the session names no job, the jobs list finds it. `jobId`, when the page started the job itself, skips the look-up.
 */
export function EntityJobProgress({ entityId, jobId, label, onDone }: { entityId: string; jobId: string | null; label: string; onDone: (job: Job) => void }) {
  const found = useAsync(
    () =>
      jobId
        ? Promise.resolve(jobId)
        : get<Page<ListItem<'/api/jobs'>>>(`/api/jobs${qs({ kind: 'builder_run', entity_id: entityId, sort_field: 'created_at', sort_direction: 'desc', limit: 1 })}`).then(
            (r) => r.items[0]?.id ?? null,
          ),
    [entityId, jobId],
  );
  if (found.error) return <ErrorBox error={found.error} />;
  if (found.data === undefined) return <Loading what={`${label}: looking for its job`} />;
  // Its job is not listed (the caller's key may not read jobs): the session's own polling still shows the outcome.
  if (found.data === null) return <Loading what={label} />;
  return <JobProgress key={found.data} jobId={found.data} label={label} onDone={onDone} />;
}
