import { useState } from 'preact/hooks';
import { get, qs, type ListItem, type Page } from '../../api';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, usePaged, useTitle } from '../../ui';

type LogEntry = ListItem<'/api/admin/logs'>;

/** A datetime-local value as the API's RFC 3339 time, or undefined when empty. */
export function isoOrUndefined(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Recent warnings and errors of every process, searchable. */
export function AdminLogsPage() {
  useTitle('Admin · Service logs');
  const [level, setLevel] = useState('');
  const [q, setQ] = useState('');
  const [proc, setProc] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const list = usePaged(
    ({ limit, offset }) =>
      get<Page<LogEntry>>(`/api/admin/logs${qs({ level: level || undefined, q: q || undefined, process: proc || undefined, from: isoOrUndefined(from), to: isoOrUndefined(to), limit, offset })}`),
    [level, q, proc, from, to],
  );
  return (
    <>
      <h1>Service logs</h1>
      <Section
        title="Warnings and errors"
        actions={
          <button type="button" class="secondary small" onClick={list.reload}>
            Refresh
          </button>
        }
      >
        <form class="row filters" role="search" onSubmit={(e) => e.preventDefault()}>
          <Select label="Level" value={level} options={[['', 'any'], 'warn', 'error', 'fatal']} onChange={(e) => setLevel(e.currentTarget.value)} />
          <Field label="Search text" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
          <Field label="Process" value={proc} onInput={(e) => setProc(e.currentTarget.value)} />
          <Field label="From" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          <Field label="To" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </form>
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Log entries"
            rows={list.data.items}
            empty="No entry matches."
            columns={[
              { head: 'Time', cell: (l) => fmtDate(l.time) },
              { head: 'Level', cell: (l) => <span class={`status status-${l.level === 'warn' ? 'queued' : 'failed'}`}>{l.level}</span> },
              { head: 'Process', cell: (l) => `${l.process}${l.pid ? ` (${l.pid})` : ''}` },
              { head: 'Message', cell: (l) => l.msg },
              {
                head: 'Fields',
                cell: (l) =>
                  Object.keys(l.fields).length ? (
                    <details>
                      <summary>{Object.keys(l.fields).join(', ')}</summary>
                      <pre class="json">{JSON.stringify(l.fields, null, 2)}</pre>
                    </details>
                  ) : (
                    '–'
                  ),
              },
            ]}
          />
        ) : (
          <Loading />
        )}
        {list.pager}
      </Section>
    </>
  );
}
