import { useState } from 'preact/hooks';
import { get, qs, type ListItem, type Page } from '../../api';
import { ErrorBox, Field, fmtDate, Loading, Section, Table, usePaged, useTitle } from '../../ui';
import { isoOrUndefined } from './logs';

type AuditEntry = ListItem<'/api/admin/audit-log'>;

/** A value of a change as text: JSON for anything but a plain string, `–` for none. */
function shown(v: unknown): string {
  if (v === undefined || v === null) return '–';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** An entry's changed fields, one line each: `field: before → after` (secrets arrive masked as `***`). */
function Changes({ changes }: { changes: AuditEntry['changes'] }) {
  const fields = Object.entries(changes ?? {});
  if (!fields.length) return <span class="muted">–</span>;
  return (
    <ul class="audit-changes">
      {fields.map(([field, c]) => (
        <li key={field}>
          <code>{field}</code>: {'before' in c ? <del>{shown(c.before)}</del> : null}
          {'before' in c && 'after' in c ? ' → ' : null}
          {'after' in c ? <ins>{shown(c.after)}</ins> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * A filterable, paged table of audit entries from `endpoint` (the admin log, or one project's): who, what, which
 * resource, the changed fields as before → after, from where and through which request.
 */
export function AuditEntries({ endpoint, caption, projectColumn }: { endpoint: string; caption: string; projectColumn: boolean }) {
  const [action, setAction] = useState('');
  const [resourceType, setResourceType] = useState('');
  const [resourceId, setResourceId] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // An actor filter is a user id; anything else typed there would only be a 422.
  const actorId = /^[0-9a-f-]{36}$/i.test(actor.trim()) ? actor.trim() : undefined;
  const list = usePaged(
    ({ limit, offset }) =>
      get<Page<AuditEntry>>(
        `${endpoint}${qs({ action: action.trim() || undefined, resource_type: resourceType.trim() || undefined, resource_id: resourceId.trim() || undefined, actor_user_id: actorId, from: isoOrUndefined(from), to: isoOrUndefined(to), limit, offset })}`,
      ),
    [endpoint, action, resourceType, resourceId, actorId, from, to],
  );
  return (
    <>
      <form class="row wrap filters" role="search" aria-label={`Filter ${caption.toLowerCase()}`} onSubmit={(e) => e.preventDefault()}>
        <Field label="Action" placeholder="project.update" value={action} onInput={(e) => setAction(e.currentTarget.value)} />
        <Field label="Resource type" placeholder="project" value={resourceType} onInput={(e) => setResourceType(e.currentTarget.value)} />
        <Field label="Resource id" value={resourceId} onInput={(e) => setResourceId(e.currentTarget.value)} />
        <Field label="Actor user id" value={actor} onInput={(e) => setActor(e.currentTarget.value)} />
        <Field label="From" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        <Field label="To" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </form>
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption={caption}
          rows={list.data.items}
          empty="No entry matches."
          columns={[
            { head: 'Time', cell: (e) => fmtDate(e.created_at) },
            { head: 'Action', cell: (e) => <code>{e.action}</code> },
            { head: 'Resource', cell: (e) => `${e.resource_type}${e.resource_id ? ` ${e.resource_id}` : ''}` },
            ...(projectColumn ? [{ head: 'Project', cell: (e: AuditEntry) => e.project_id ?? '–' }] : []),
            { head: 'Actor', cell: (e) => (e.actor_user_id ?? 'anonymous') + (e.actor_key_prefix ? ` (key ${e.actor_key_prefix})` : '') },
            { head: 'Changes', cell: (e) => <Changes changes={e.changes} /> },
            { head: 'From', cell: (e) => [e.ip, e.user_agent].filter(Boolean).join(' · ') || '–' },
            { head: 'Request', cell: (e) => <span title={e.route ?? undefined}>{e.request_id ?? '–'}</span> },
          ]}
        />
      ) : (
        <Loading />
      )}
      {list.pager}
    </>
  );
}

/** The admin area's audit log: every mutation made through the API. */
export function AdminAuditPage() {
  useTitle('Admin · Audit log');
  return (
    <>
      <h1>Audit log</h1>
      <Section title="Every change made through the API">
        <AuditEntries endpoint="/api/admin/audit-log" caption="Audit log entries" projectColumn />
      </Section>
    </>
  );
}

/** A project's audit log, for its owners (on the project's members tab). */
export function ProjectAuditLog({ projectId }: { projectId: string }) {
  return (
    <Section title="Audit log">
      <AuditEntries endpoint={`/api/projects/${projectId}/audit-log`} caption="Audit log of the project" projectColumn={false} />
    </Section>
  );
}
