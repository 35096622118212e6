import { useEffect, useState } from 'preact/hooks';
import { get, post, type GetBody } from '../../api';
import { DatasetVersionPicker, type DatasetVersionChoice } from '../../pickers';
import { Link } from '../../router';
import { ErrorBox, Field, fmtNum, Loading, Section, Select, useAction, useAsync } from '../../ui';
import { EntityJobProgress, JobProgress, type Job } from './job-progress';
import type { BuilderSession } from './types';

type DatasetVersion = GetBody<'/api/dataset-versions/{dataset_version_id}'>;
type Dataset = GetBody<'/api/datasets/{dataset_id}'>['dataset'];

/** Where a version lives in the UI: its dataset's page showing that version. */
const versionHref = (datasetId: string, version: number) => `/app/datasets/${datasetId}?tab=preview&version=${version}`;

/**
 * Finalize: the last executed step's output becomes a new version of the source dataset (or a new dataset), with the
 * session and its recipe in the version's lineage; the source version is never changed.
 */
export function FinalizeSection({ session, datasetName, ready, onChange }: { session: BuilderSession; datasetName: string; ready: boolean; onChange: () => void }) {
  const [mode, setMode] = useState<'new_version' | 'new_dataset'>('new_version');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  return (
    <Section title="Finalize">
      {session.status === 'finalizing' || jobId ? (
        <EntityJobProgress
          entityId={session.id}
          jobId={jobId}
          label="Finalizing"
          onDone={() => {
            // A failed finalize shows its error with the session and offers the form again.
            setJobId(null);
            onChange();
          }}
        />
      ) : !ready ? (
        <p class="muted">Execute at least one step (and wait for running steps) to finalize.</p>
      ) : (
        <form
          class="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const body = { mode, ...(mode === 'new_dataset' && name.trim() ? { name: name.trim() } : {}), ...(description.trim() ? { description: description.trim() } : {}) };
              const r = await post<{ job_id: string }>(`/api/builder/sessions/${session.id}/finalize`, body);
              setJobId(r.job_id);
            });
          }}
        >
          <p class="muted">The last executed step's output is committed; the executed steps' operations, in order, become the recipe.</p>
          <div class="grid3">
            <Select
              label="Result"
              value={mode}
              options={[
                ['new_version', `A new version of ${datasetName}`],
                ['new_dataset', 'A new dataset'],
              ]}
              onChange={(e) => setMode(e.currentTarget.value as typeof mode)}
            />
            {mode === 'new_dataset' && <Field label="New dataset name" value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
            <Field label="Version description" value={description} maxLength={5000} onInput={(e) => setDescription(e.currentTarget.value)} />
          </div>
          <ErrorBox error={error} />
          <div>
            <button type="submit" disabled={busy}>
              Finalize
            </button>
          </div>
        </form>
      )}
    </Section>
  );
}

/** A version named as a person reads it ("version 1 of customers"), linked to its dataset's page at that version. */
function VersionLink({ datasetId, version }: { datasetId: string; version: number }) {
  const d = useAsync(() => get<GetBody<'/api/datasets/{dataset_id}'>>(`/api/datasets/${datasetId}`).then((r): Dataset => r.dataset), [datasetId]);
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  return (
    <Link href={versionHref(datasetId, version)}>
      version {version} of {d.data.name}
    </Link>
  );
}

/** The finalized result, linked to its dataset page at that version, and the recipe replayed on another version. */
export function ResultSection({ session, latestVersionId }: { session: BuilderSession; latestVersionId: string }) {
  const v = useAsync(() => get<DatasetVersion>(`/api/dataset-versions/${session.result_version_id}`), [session.result_version_id]);
  const steps = session.recipe?.length ?? 0;
  return (
    <Section title="Result">
      <ErrorBox error={v.error} />
      {v.data ? (
        <p>
          The session made <VersionLink datasetId={v.data.dataset_id} version={v.data.version} /> ({fmtNum(v.data.row_count)} rows, {fmtNum(v.data.column_count)} columns) with a recipe of{' '}
          {fmtNum(steps)} {steps === 1 ? 'operation' : 'operations'}.
        </p>
      ) : (
        !v.error && <Loading />
      )}
      <Replay session={session} latestVersionId={latestVersionId} />
    </Section>
  );
}

/**
 * The recipe applied to another version: the source dataset's latest (a newer upload, usually) is offered first, and
 * the run makes a new version of the dataset of the version picked.
 */
function Replay({ session, latestVersionId }: { session: BuilderSession; latestVersionId: string }) {
  const [choice, setChoice] = useState<DatasetVersionChoice>({ datasetId: session.dataset_id, versionId: latestVersionId });
  // The source dataset's latest version is known once the page has read the dataset.
  useEffect(() => {
    if (latestVersionId) setChoice((c) => (c.versionId || c.datasetId !== session.dataset_id ? c : { ...c, versionId: latestVersionId }));
  }, [latestVersionId]);
  const [jobId, setJobId] = useState<string | null>(null);
  const [ended, setEnded] = useState<Job | null>(null);
  const { busy, error, run } = useAction();
  if (session.replayable === false) return <p class="muted">A step's output was uploaded by hand, so this session's recipe cannot replay.</p>;
  const made = ended?.status === 'succeeded' ? (ended.result as { dataset_id?: string; version?: number } | null) : null;
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const r = await post<{ job_id: string }>(`/api/builder/sessions/${session.id}/replay`, { dataset_version_id: choice.versionId });
          setEnded(null);
          setJobId(r.job_id);
        });
      }}
    >
      <h3>Replay on version…</h3>
      <p class="muted">The recipe's operations run on the version picked (one with the columns they need): a new version of its dataset.</p>
      <div class="grid3">
        <DatasetVersionPicker projectId={session.project_id} value={choice} onChange={setChoice} />
      </div>
      <ErrorBox error={error} />
      <div>
        <button type="submit" disabled={busy || !choice.versionId || (!!jobId && !ended)}>
          Replay the recipe
        </button>
      </div>
      {jobId && <JobProgress key={jobId} jobId={jobId} label="Replay" onDone={setEnded} />}
      {made?.dataset_id !== undefined && made.version !== undefined && (
        <p role="status">
          Replayed: <VersionLink datasetId={made.dataset_id} version={made.version} />.
        </p>
      )}
    </form>
  );
}
