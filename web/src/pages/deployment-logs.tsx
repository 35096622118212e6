import { useEffect, useState } from 'preact/hooks';
import { get, patch, qs, type GetBody, type ListItem, type Page } from '../api';
import { ErrorBox, Field, fmtDate, Loading, Section, Select, Table, useAction, usePaged } from '../ui';

type Deployment = GetBody<'/api/mlops/deployments/{deployment_id}'>['deployment'];
type InferenceLog = ListItem<'/api/mlops/deployments/{deployment_id}/inference-logs'>;

const STATUSES: [string, string][] = [
  ['', 'any'],
  ['ok', 'answered'],
  ['error', 'refused or failed'],
];

/** A scalar as a person reads it: text as is, numbers as JSON writes them, a missing value as "missing". */
const scalar = (v: unknown) => (v === null || v === undefined ? 'missing' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A stored input row (or the first of a batch) as `name = value` pairs. */
export function inputsText(inputs: unknown): string {
  if (inputs === null || inputs === undefined) return '';
  const rows = Array.isArray(inputs) ? inputs : [inputs];
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first || typeof first !== 'object') return scalar(inputs);
  const pairs = Object.entries(first)
    .map(([k, v]) => `${k} = ${scalar(v)}`)
    .join(', ');
  return rows.length > 1 ? `${rows.length} rows; first: ${pairs}` : pairs;
}

/** A prediction (one, or a batch's) as text. */
export function predictionText(p: unknown): string {
  if (p === null || p === undefined) return '–';
  return Array.isArray(p) ? p.map(scalar).join(', ') : scalar(p);
}

/** The detail a refused request was answered with: a text, or validation issues as "where: what". */
export function errorDetailText(e: unknown): string {
  if (e === null || e === undefined) return '';
  if (typeof e === 'string') return e;
  if (Array.isArray(e)) return e.map((i: { loc?: unknown[]; msg?: string }) => (i.loc?.length ? `${i.loc.join('.')}: ${i.msg ?? ''}` : (i.msg ?? JSON.stringify(i)))).join('; ');
  return JSON.stringify(e);
}

/** A `datetime-local` value (the browser's time zone) as the API's ISO timestamp; undefined when empty or invalid. */
const isoOf = (local: string) => {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

/**
 * The deployment's default for storing inputs (`config.store_payload`, set by `PATCH …/privacy`): drift compares
 * logged inputs with the training data, so without it there is nothing to compare. A predict request's own
 * `options.store_payload` still wins.
 */
export function StoreInputsToggle({ dep, onChange }: { dep: Deployment; onChange: () => void }) {
  const { busy, error, run } = useAction();
  const saved = dep.config.store_payload === true;
  // Shown at once as clicked (a controlled checkbox would spring back until the deployment is read again).
  const [on, setOn] = useState(saved);
  useEffect(() => setOn(saved), [saved]);
  return (
    <div class="stack">
      <label class="check">
        <input
          type="checkbox"
          checked={on}
          disabled={busy}
          onChange={(e) => {
            const store = e.currentTarget.checked;
            setOn(store);
            void run(async () => {
              try {
                await patch(`/api/mlops/deployments/${dep.id}/privacy`, { store_payload: store });
              } catch (err) {
                setOn(!store);
                throw err;
              }
              onChange();
            });
          }}
        />{' '}
        Store the inputs of predict requests in the inference log
      </label>
      <p class="muted">
        {on
          ? 'Inputs are stored (only the model’s input columns, privacy-mapped ones masked); a request can still opt out with options.store_payload = false.'
          : 'Drift compares logged inputs with the training data: turn on storing inputs (or send options.store_payload = true with a request) for drift to have data.'}
      </p>
      <ErrorBox error={error} />
    </div>
  );
}

/** The inference log as a table, filtered by status and time, newest first. */
export function InferenceLogs({ dep, onChange }: { dep: Deployment; onChange: () => void }) {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const since = isoOf(from);
  const until = isoOf(to);
  const list = usePaged(
    ({ limit, offset }) => get<Page<InferenceLog>>(`/api/mlops/deployments/${dep.id}/inference-logs${qs({ status: status || undefined, since, until, limit, offset })}`),
    [dep.id, status, since, until],
  );
  return (
    <>
      <Section title="Logging">
        <StoreInputsToggle dep={dep} onChange={onChange} />
      </Section>
      <Section
        title="Inference logs"
        actions={
          <button type="button" class="secondary small" onClick={list.reload}>
            Refresh
          </button>
        }
      >
        <div class="row wrap filters">
          <Select label="Status" value={status} options={STATUSES} onChange={(e) => setStatus(e.currentTarget.value)} />
          <Field label="From" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          <Field label="To" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </div>
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Logged requests"
            rows={list.data.items}
            empty={status || since || until ? 'No request matches these filters.' : 'No request yet.'}
            columns={[
              { head: 'When', cell: (l) => fmtDate(l.created_at) },
              {
                head: 'Status',
                cell: (l) => (l.status_code < 400 ? <span class="status status-succeeded">{l.status_code} answered</span> : <span class="status status-failed">{l.status_code} refused</span>),
              },
              { head: 'Inputs', cell: (l) => (l.inputs === null || l.inputs === undefined ? <span class="muted">not stored</span> : <span class="clip">{inputsText(l.inputs)}</span>) },
              { head: 'Prediction', cell: (l) => predictionText(l.prediction) },
              { head: 'Error', cell: (l) => (l.error ? <span class="error-detail">{errorDetailText(l.error)}</span> : '–') },
              { head: 'Latency (ms)', cell: (l) => l.latency_ms, num: true },
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
