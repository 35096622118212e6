import { useState } from 'preact/hooks';
import { patch, post } from '../../api';
import { ErrorBox, fmtNum, Status, useAction } from '../../ui';
import { EntityJobProgress } from './job-progress';
import { describeOperation } from './operation-text';
import { OperationsEditor } from './operations-editor';
import { PreviewTable, SummaryView } from './result-view';
import { UploadResult } from './upload-result';
import type { BuilderStep, Operation, ProposedOperation } from './types';

/**
 * The edited list with the reasons of the operations that came through the edit unchanged (the API keeps a reason
 * sent back); an operation the user wrote or changed has none.
 */
function withReasons(edited: Operation[], before: ProposedOperation[]): EditedOperation[] {
  const reasons = new Map(before.map((p) => [JSON.stringify(p.operation), p.reason]));
  return edited.map((operation) => {
    const reason = reasons.get(JSON.stringify(operation));
    return reason === undefined ? { operation } : { operation, reason };
  });
}

/** An operation as an edit sends it: with its reason when it kept one. */
type EditedOperation = { operation: Operation; reason?: string };

/** A step's name as a heading word ("Understand"). */
export const stepTitle = (name: string) => name[0].toUpperCase() + name.slice(1);

/** What each step is for, one line under its name. */
const STEP_PURPOSE: Record<string, string> = {
  understand: 'Fix how columns are read: types, dates stored as text, names.',
  clean: 'Drop identifiers, constants and leaking columns; duplicates, missing values, outliers.',
  transform: 'Reshape values: text tidying, splits, derived columns, filters.',
  features: 'Encode categories and bin numbers for modelling.',
  validate: 'Score the result: quality checks and the target present.',
};

/**
 * One step of the session: its status, its proposal (one line and the reason per operation, each removable), the
 * actions (propose, execute, reject, edit), the preview and summary of what the operations do, and the job's progress
 * while it executes. Every action answers the step or a job; the page reloads the session after each.
 */
export function StepCard({
  sessionId,
  index,
  step,
  selected,
  locked,
  assistant,
  onSelect,
  onChange,
}: {
  sessionId: string;
  index: number;
  step: BuilderStep;
  /** The step the chat panel is bound to. */
  selected: boolean;
  /** The session is finalized or finalizing: nothing changes any more. */
  locked: boolean;
  /** Whether the service has an assistant, which reads instructions (null: not known yet); the planner ignores them. */
  assistant: boolean | null;
  onSelect: () => void;
  onChange: () => void;
}) {
  const title = stepTitle(step.name);
  const [editing, setEditing] = useState(false);
  const [instructions, setInstructions] = useState('');
  /** The job an Execute just started (the step's own `job_id` takes over once the session is reloaded). */
  const [startedJob, setStartedJob] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const base = `/api/builder/sessions/${sessionId}/steps/${step.name}`;
  const ops = step.operations.map((p) => p.operation);
  const executing = step.status === 'executing';
  const frozen = locked || executing || busy;
  const save = (next: EditedOperation[]) =>
    void run(async () => {
      await patch(base, { operations: next });
      setEditing(false);
      onChange();
    });
  const headingId = `step-${step.name}`;
  return (
    <li class={`card builder-step${selected ? ' selected' : ''}`} aria-labelledby={headingId}>
      <div class="card-head">
        <h2 id={headingId}>
          {index + 1}. {title}
        </h2>
        <Status value={step.status} />
      </div>
      <p class="muted">{STEP_PURPOSE[step.name]}</p>
      {step.operations.length === 0 ? (
        <p class="muted">{step.status === 'proposed' ? 'No operation proposed: propose, or write them in the editor.' : 'No operation.'}</p>
      ) : (
        <ol class="builder-ops" aria-label={`Operations of ${title}`}>
          {step.operations.map((p, i) => (
            <li key={i}>
              <span class="builder-op">{describeOperation(p.operation)}</span>
              {p.reason && <span class="muted"> · {p.reason}</span>}
              {!frozen && !editing && step.status !== 'executed' && (
                <button type="button" class="secondary small" aria-label={`Remove operation ${i + 1} of ${title}`} onClick={() => save(step.operations.filter((_, j) => j !== i))}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {step.uploaded && step.status === 'executed' && <p>The output of this step is a file uploaded by hand{step.output_rows !== null ? ` (${fmtNum(step.output_rows)} rows)` : ''}.</p>}
      {step.error && (
        <p class="error" role="alert">
          {step.error}
        </p>
      )}
      {editing ? (
        <OperationsEditor stepLabel={title} operations={ops} busy={busy} error={error} onSave={(edited) => save(withReasons(edited, step.operations))} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <ErrorBox error={error} />
          {!locked && (
            <form
              class="row wrap builder-actions"
              onSubmit={(e) => {
                e.preventDefault();
                void run(async () => {
                  await post(`${base}/propose`, instructions.trim() ? { instructions: instructions.trim() } : {});
                  setInstructions('');
                  onChange();
                });
              }}
            >
              {assistant !== false && (
                <label class="field grow">
                  <span>Instructions for {title} (optional)</span>
                  <input value={instructions} maxLength={4000} disabled={frozen} onInput={(e) => setInstructions(e.currentTarget.value)} />
                </label>
              )}
              <button type="submit" class="secondary" disabled={frozen} aria-label={`Propose ${title}`}>
                Propose
              </button>
              <button
                type="button"
                disabled={frozen || step.status === 'rejected'}
                aria-label={`Execute ${title}`}
                onClick={() =>
                  void run(async () => {
                    const r = await post<{ job_id: string }>(`${base}/execute`);
                    setStartedJob(r.job_id);
                    onChange();
                  })
                }
              >
                Execute
              </button>
              {step.status === 'rejected' ? (
                <button type="button" class="secondary" disabled={frozen} aria-label={`Reopen ${title}`} onClick={() => void run(() => patch(base, { status: 'proposed' }).then(onChange))}>
                  Reopen
                </button>
              ) : (
                <button type="button" class="secondary" disabled={frozen} aria-label={`Reject ${title}`} onClick={() => void run(() => patch(base, { status: 'rejected' }).then(onChange))}>
                  Reject
                </button>
              )}
              <button type="button" class="secondary" disabled={frozen} aria-label={`Edit the operations of ${title}`} onClick={() => setEditing(true)}>
                Edit
              </button>
              {!selected && (
                <button type="button" class="secondary" aria-label={`Chat about ${title}`} onClick={onSelect}>
                  Chat
                </button>
              )}
            </form>
          )}
        </>
      )}
      {executing && <EntityJobProgress entityId={step.id} jobId={startedJob} label={`Execution of ${title}`} onDone={onChange} />}
      {step.summary && (
        <>
          <h3>{step.status === 'executed' ? 'What it changed' : 'What it would change (on a sample)'}</h3>
          <SummaryView summary={step.summary} label={`Summary of ${title}`} />
        </>
      )}
      {step.preview && (
        <details open={selected}>
          <summary>{step.status === 'executed' ? 'First rows of the output' : 'Preview on a sample'}</summary>
          <PreviewTable preview={step.preview} caption={`Preview of ${title}`} />
        </details>
      )}
      {!locked && !editing && <UploadResult url={`${base}/upload-result`} title={title} disabled={frozen} onDone={onChange} />}
    </li>
  );
}
