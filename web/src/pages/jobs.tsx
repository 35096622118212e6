import { useState } from 'preact/hooks';
import { get, post, qs, type ListItem, type Page } from '../api';
import { useLocation } from '../router';
import { ErrorBox, fmtDate, Loading, Progress, Section, Select, Status, Table, useAction, usePaged, usePoll, useTitle } from '../ui';

type Job = ListItem<'/api/jobs'>;
const ACTIVE = ['queued', 'running'];

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
