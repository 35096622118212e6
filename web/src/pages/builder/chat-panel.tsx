import { useState } from 'preact/hooks';
import { post } from '../../api';
import { ErrorBox, Select, useAction } from '../../ui';
import { describeOperation } from './operation-text';
import { stepTitle } from './step-card';
import type { BuilderMessage, BuilderStep, Proposal, StepName } from './types';

/**
 * The conversation about one step: its messages, a box to ask for a change ("keep the zip code", "impute age with the
 * median") and, after the assistant's reply, the proposal it revised. The assistant only ever answers operations of
 * the closed set, validated by the API: nothing said here runs as code.
 */
export function ChatPanel({
  sessionId,
  steps,
  messages,
  selected,
  locked,
  assistant,
  onSelect,
  onChange,
}: {
  sessionId: string;
  steps: BuilderStep[];
  messages: BuilderMessage[];
  selected: StepName;
  locked: boolean;
  /** Whether the service has an assistant (null: not known yet). */
  assistant: boolean | null;
  onSelect: (s: StepName) => void;
  onChange: () => void;
}) {
  const [text, setText] = useState('');
  /** The step as the last reply left it (its revised proposal), shown under the conversation. */
  const [revised, setRevised] = useState<BuilderStep | null>(null);
  const { busy, error, run } = useAction();
  const title = stepTitle(selected);
  const thread = messages.filter((m) => m.step === selected);
  const step = steps.find((s) => s.name === selected);
  const shownRevision = revised && revised.name === selected ? revised : null;
  return (
    <aside class="card builder-chat" aria-label="Chat about a step">
      <h2>Chat</h2>
      <Select
        label="Step"
        value={selected}
        options={steps.map((s) => [s.name, stepTitle(s.name)] as [string, string])}
        onChange={(e) => {
          setRevised(null);
          onSelect(e.currentTarget.value as StepName);
        }}
      />
      <ol class="chat-log" tabIndex={0} aria-label={`Messages about ${title}`} aria-live="polite">
        {thread.length === 0 && <li class="muted">No message about {title} yet: ask for a change to its proposal.</li>}
        {thread.map((m) => (
          <li key={m.id} class={`chat-${m.role}`}>
            <strong>{m.role === 'user' ? 'You' : 'Assistant'}:</strong> {m.content}
          </li>
        ))}
      </ol>
      {shownRevision && (
        <div class="stack" role="status">
          <h3>Revised proposal</h3>
          {shownRevision.operations.length === 0 ? (
            <p class="muted">No operation.</p>
          ) : (
            <ul aria-label={`Revised operations of ${title}`}>
              {shownRevision.operations.map((p, i) => (
                <li key={i}>{describeOperation(p.operation)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {assistant === false && <p class="muted">This session's proposals come from the deterministic planner: chat needs an assistant (an LLM configured on the service).</p>}
      {!locked && (
        <form
          class="stack"
          onSubmit={(e) => {
            e.preventDefault();
            const message = text.trim();
            if (!message) return;
            void run(async () => {
              const r = await post<Proposal>(`/api/builder/sessions/${sessionId}/chat`, { step: selected, message });
              setText('');
              setRevised(r.step);
              onChange();
            });
          }}
        >
          <label class="field">
            <span>Message about {title}</span>
            <textarea rows={3} maxLength={4000} value={text} disabled={busy || step?.status === 'executing'} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
          <ErrorBox error={error} />
          <div>
            <button type="submit" disabled={busy || !text.trim() || step?.status === 'executing'}>
              {busy ? 'Asking…' : 'Send'}
            </button>
          </div>
        </form>
      )}
    </aside>
  );
}
