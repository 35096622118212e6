import { useState } from 'preact/hooks';
import { get, post, qs, type Answer, type Page } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Status, Table, useAction, usePaged } from '../../ui';
import type { BuilderSessionSummary } from './types';

/**
 * The dataset page's Builder tab: the builder sessions on this dataset, and a new one on a version of it (the one
 * shown by default), with the target the planner should protect from leaks.
 */
export function BuilderTab({ datasetId, projectId, version, columns }: { datasetId: string; projectId: string; version: number; columns: string[] }) {
  const list = usePaged(({ limit, offset }) => get<Page<BuilderSessionSummary>>(`/api/builder/sessions${qs({ project_id: projectId, dataset_id: datasetId, limit, offset })}`), [projectId, datasetId]);
  return (
    <>
      <NewBuilderSession datasetId={datasetId} projectId={projectId} version={version} columns={columns} />
      <Section title="Builder sessions">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Builder sessions"
            rows={list.data.items}
            empty="No builder session on this dataset yet."
            columns={[
              { head: 'Session', cell: (s) => <Link href={`/app/projects/${projectId}/builder/${s.id}`}>{s.name}</Link> },
              { head: 'Target', cell: (s) => s.target_column ?? '–' },
              { head: 'Status', cell: (s) => <Status value={s.status} /> },
              { head: 'Created', cell: (s) => fmtDate(s.created_at) },
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

function NewBuilderSession({ datasetId, projectId, version, columns }: { datasetId: string; projectId: string; version: number; columns: string[] }) {
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [allowSample, setAllowSample] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <Section title="New builder session">
      <p class="muted">
        Prepare version {version} step by step: each step proposes operations you review, edit, execute or reject; the result is a new version, and its recipe replays on later uploads.
      </p>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { session } = await post<Answer<'/api/builder/sessions', 'post'>>('/api/builder/sessions', {
              project_id: projectId,
              dataset_id: datasetId,
              version,
              ...(target ? { target_column: target } : {}),
              ...(name.trim() ? { name: name.trim() } : {}),
              allow_sample: allowSample,
            });
            navigate(`/app/projects/${projectId}/builder/${session.id}`);
          });
        }}
      >
        <div class="grid3">
          <Field label="Session name" value={name} maxLength={200} placeholder="optional" onInput={(e) => setName(e.currentTarget.value)} />
          <Select label="Target column" value={target} options={[['', 'none'], ...columns.map((c): [string, string] => [c, c])]} onChange={(e) => setTarget(e.currentTarget.value)} />
        </div>
        <label class="check">
          <input type="checkbox" checked={allowSample} onChange={(e) => setAllowSample(e.currentTarget.checked)} /> Let the assistant see up to 20 sample rows (else only the profile)
        </label>
        <ErrorBox error={error} />
        <div>
          <button type="submit" disabled={busy}>
            New builder session
          </button>
        </div>
      </form>
    </Section>
  );
}
