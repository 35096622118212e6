import { useState } from 'preact/hooks';
import { ErrorBox } from '../../ui';
import type { Operation } from './types';

/**
 * The step's operations as JSON, for the edits the proposal list has no control for (a different strategy, a new
 * `derive`). Only the JSON's shape is checked here; the API validates the operations against the step's input
 * schema and its 422 (which operation, and why) shows under the box.
 */
export function OperationsEditor({
  stepLabel,
  operations,
  busy,
  error,
  onSave,
  onCancel,
}: {
  stepLabel: string;
  operations: Operation[];
  busy: boolean;
  error?: string;
  onSave: (ops: Operation[]) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(operations, null, 2));
  const [parseError, setParseError] = useState<string>();
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          setParseError(`Not JSON: ${(err as Error).message}`);
          return;
        }
        if (!Array.isArray(parsed) || parsed.some((o) => typeof o !== 'object' || o === null || typeof (o as { op?: unknown }).op !== 'string')) {
          setParseError('Expected a list of operations, each an object with an "op" (for example [{"op": "drop_columns", "columns": ["id"]}]).');
          return;
        }
        setParseError(undefined);
        onSave(parsed as Operation[]);
      }}
    >
      <label class="field">
        <span>Operations of {stepLabel} (JSON)</span>
        <textarea class="code" rows={Math.min(20, Math.max(6, text.split('\n').length))} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <ErrorBox error={parseError ?? error} />
      <div class="row wrap">
        <button type="submit" disabled={busy}>
          Save operations
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
