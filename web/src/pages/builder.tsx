import { useState } from 'preact/hooks';
import { del, get, type GetBody } from '../api';
import { ConfirmButton } from '../confirm';
import { Link, navigate } from '../router';
import { ErrorBox, fmtDate, Loading, Status, useAction, useAsync, usePoll, useTitle } from '../ui';
import { ChatPanel } from './builder/chat-panel';
import { FinalizeSection, ResultSection } from './builder/finalize';
import { StepCard } from './builder/step-card';
import type { BuilderSession, BuilderStep, StepName } from './builder/types';

type Dataset = GetBody<'/api/datasets/{dataset_id}'>['dataset'];
type DatasetVersion = GetBody<'/api/dataset-versions/{dataset_version_id}'>;

/** What the session works on, in a person's terms: the dataset (its name, its project's) and the source version's number. */
export interface BuilderSource {
  dataset: Pick<Dataset, 'id' | 'name' | 'project_id' | 'project_name' | 'dataset_version_id'>;
  version: number;
}

/** The step the chat starts on: the first one still to decide (neither executed nor rejected), else the last. */
function firstOpenStep(steps: BuilderStep[]): StepName {
  return (steps.find((s) => s.status === 'proposed' || s.status === 'failed') ?? steps[steps.length - 1]).name;
}

/** The session's dataset and source version, read once (the session names them by id). */
function useSource(session: BuilderSession | undefined) {
  return useAsync(async (): Promise<BuilderSource | null> => {
    if (!session) return null;
    const [d, v] = await Promise.all([get<GetBody<'/api/datasets/{dataset_id}'>>(`/api/datasets/${session.dataset_id}`), get<DatasetVersion>(`/api/dataset-versions/${session.source_version_id}`)]);
    return { dataset: d.dataset, version: v.version };
  }, [session?.dataset_id, session?.source_version_id]);
}

/**
 * A builder session: the source (dataset, version, target), the five steps in order, each with its proposal,
 * preview, summary and actions, the chat about the selected step beside them (below on a narrow screen), then
 * finalize, and once finalized the resulting version and a replay of the recipe on another version.
 */
export function BuilderSessionPage({ projectId, sessionId }: { projectId: string; sessionId: string }) {
  const d = useAsync(() => get<GetBody<'/api/builder/sessions/{session_id}'>>(`/api/builder/sessions/${sessionId}`).then((r) => r.session), [sessionId]);
  const session = d.data;
  const source = useSource(session);
  const [chosen, setChosen] = useState<StepName | null>(null);
  const { busy, error, run } = useAction();
  // A step executing or a finalize running moves the session without the page asking: it reloads until they stop.
  const moving = !!session && (session.steps.some((s) => s.status === 'executing') || session.status === 'finalizing');
  usePoll(d.reload, 1500, moving);
  useTitle(session ? `Builder: ${session.name}` : 'Builder session');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!session) return <Loading />;
  const src = source.data;
  const datasetName = src?.dataset.name ?? 'the dataset';
  const finalized = session.status === 'finalized';
  const locked = finalized || session.status === 'finalizing';
  const selected = chosen ?? firstOpenStep(session.steps);
  const ready = session.steps.some((s) => s.status === 'executed') && !session.steps.some((s) => s.status === 'executing');
  const assistant = session.assistant;
  const datasetHref = (tab: string) => `/app/datasets/${session.dataset_id}?tab=${tab}`;
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${projectId}`}>{src?.dataset.project_name ?? 'Project'}</Link> /{' '}
        <Link href={datasetHref('builder')}>{datasetName}</Link> /
      </p>
      <div class="title-row">
        <h1>{session.name}</h1>
        <div class="row">
          <ConfirmButton
            disabled={busy || moving}
            confirm={{
              question: `Delete the builder session '${session.name}'?`,
              consequence: 'Its steps, their outputs and the chat are deleted; a version it made stays.',
              confirmLabel: 'Delete',
            }}
            onConfirm={() => void run(() => del(`/api/builder/sessions/${sessionId}`).then(() => navigate(datasetHref('builder'))))}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <ErrorBox error={error ?? source.error} />
      <dl class="facts" aria-label="Session">
        <dt>Dataset</dt>
        <dd>{src ? <Link href={`/app/datasets/${session.dataset_id}?version=${src.version}`}>{datasetName}</Link> : '…'}</dd>
        <dt>Source version</dt>
        <dd>{src ? src.version : '…'}</dd>
        <dt>Target</dt>
        <dd>{session.target_column ?? 'none'}</dd>
        <dt>Status</dt>
        <dd aria-live="polite">
          <Status value={session.status} />
        </dd>
        <dt>Sample rows to the assistant</dt>
        <dd>{session.allow_sample ? 'allowed (up to 20)' : 'never: it sees the profile only'}</dd>
        <dt>Created</dt>
        <dd>{fmtDate(session.created_at)}</dd>
      </dl>
      {session.status === 'failed' && session.error && (
        <p class="error" role="alert">
          Finalizing failed: {session.error}
        </p>
      )}
      <div class="builder-layout">
        <ol class="builder-steps" aria-label="Steps">
          {session.steps.map((s, i) => (
            <StepCard
              key={s.name}
              sessionId={sessionId}
              index={i}
              step={s}
              selected={s.name === selected}
              locked={locked}
              assistant={assistant}
              onSelect={() => setChosen(s.name)}
              onChange={d.reload}
            />
          ))}
        </ol>
        <ChatPanel sessionId={sessionId} steps={session.steps} messages={session.messages} selected={selected} locked={locked} assistant={assistant} onSelect={setChosen} onChange={d.reload} />
      </div>
      {finalized && session.result_version_id ? (
        <ResultSection session={session} latestVersionId={src?.dataset.dataset_version_id ?? ''} />
      ) : (
        <FinalizeSection session={session} datasetName={datasetName} ready={ready} onChange={d.reload} />
      )}
    </>
  );
}
