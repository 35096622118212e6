import { useState } from 'preact/hooks';
import { upload } from '../../api';
import { ErrorBox, Progress, useAction } from '../../ui';

/**
 * A step's output replaced by a file prepared elsewhere (a notebook, a spreadsheet): checked like a dataset upload,
 * the step becomes executed with it. Such a session's recipe cannot replay, which the form says before it is used.
 */
export function UploadResult({ url, title, disabled, onDone }: { url: string; title: string; disabled: boolean; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const { busy, error, run } = useAction();
  return (
    <details>
      <summary>Use a file of your own as the output of {title}</summary>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          const form = new FormData();
          form.set('file', file);
          setProgress(0);
          void run(async () => {
            try {
              await upload(url, form, setProgress);
              onDone();
            } finally {
              setProgress(null);
            }
          });
        }}
      >
        <p class="muted">The file (CSV or Parquet) is checked like an upload and becomes this step's output; the session's recipe then cannot replay.</p>
        <div class="row wrap">
          <label class="field">
            <span>Result file for {title}</span>
            <input type="file" accept=".csv,.tsv,.txt,.parquet" required disabled={disabled || busy} onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          <button type="submit" disabled={disabled || busy || !file}>
            Upload result
          </button>
        </div>
        {progress !== null && <Progress value={progress} label={`Upload of the result of ${title}`} />}
        <ErrorBox error={error} />
      </form>
    </details>
  );
}
