import { useState } from 'preact/hooks';
import { del, get, post, put, type GetBody } from '../../api';
import { ConfirmButton } from '../../confirm';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, useAction, useAsync, usePoll, useTitle } from '../../ui';

type Overview = GetBody<'/api/admin/retention'>;
type Policy = Overview['policies'][number];
type Run = Overview['last_runs'][number];
type DryRun = { as_of: string; kinds: { kind: string; action: string; count: number; sample_ids: string[] }[] };
type RunResult = { kinds?: { kind: string; action: string; rows: number }[]; files_removed?: number };

/** Kinds as people name them. */
const KIND_LABELS: Record<string, string> = {
  inference_logs: 'Inference logs',
  experiment_logs: 'Experiment logs',
  dataset_versions: 'Dataset versions',
  reports: 'Reports',
  synthetic_outputs: 'Synthetic outputs',
  audit_entries: 'Audit entries',
};

const label = (kind: string) => KIND_LABELS[kind] ?? kind;

function ruleText(p: Pick<Policy, 'keep_days' | 'keep_latest'>): string {
  return p.keep_days !== null ? `Keep ${fmtNum(p.keep_days)} days` : `Keep newest ${fmtNum(p.keep_latest)}`;
}

/** Retention: a policy per kind of record, a dry run of what they would take, a run now, and the last runs. */
export function AdminRetentionPage() {
  useTitle('Admin · Retention');
  const overview = useAsync(() => get<Overview>('/api/admin/retention'), []);
  const open = overview.data?.last_runs.some((r) => r.status === 'queued' || r.status === 'running') ?? false;
  usePoll(overview.reload, 1500, open);
  if (overview.error) return <ErrorBox error={overview.error} />;
  if (!overview.data) return <Loading />;
  return (
    <>
      <h1>Retention</h1>
      <p class="muted">
        Policies run daily at 03:00 UTC while one is enabled{overview.data.next_run_at ? ` (next: ${fmtDate(overview.data.next_run_at)})` : ''}. Always kept: the latest version of each dataset and
        every version something uses, reports still generating, logs of open experiments, and each active deployment&apos;s drift window.
      </p>
      <Policies overview={overview.data} onChanged={overview.reload} />
      <RunNow open={open} onStarted={overview.reload} />
      <LastRuns runs={overview.data.last_runs} />
    </>
  );
}

function Policies({ overview, onChanged }: { overview: Overview; onChanged: () => void }) {
  const { busy, error, run } = useAction();
  const [kind, setKind] = useState('inference_logs');
  const [rule, setRule] = useState<'keep_days' | 'keep_latest'>('keep_days');
  const [amount, setAmount] = useState('90');
  const [action, setAction] = useState('delete');
  const [enabled, setEnabled] = useState(true);
  const anonymizable = overview.kinds.find((k) => k.kind === kind)?.anonymize ?? null;
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await put(`/api/admin/retention/${kind}`, { [rule]: Number(amount), action: anonymizable ? action : 'delete', enabled });
      onChanged();
    });
  };
  return (
    <Section title="Policies">
      <Table
        caption="Retention policies"
        rows={overview.policies}
        empty="No policies: every record is kept."
        columns={[
          { head: 'Kind', cell: (p) => label(p.kind) },
          { head: 'Rule', cell: (p) => ruleText(p) },
          { head: 'Action', cell: (p) => p.action },
          { head: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
          {
            head: 'Remove',
            cell: (p) => (
              <ConfirmButton
                aria-label={`Remove the ${label(p.kind)} policy`}
                confirm={{ question: `Remove the ${label(p.kind)} policy?`, consequence: 'Its records are then kept however old.', confirmLabel: 'Remove' }}
                onConfirm={() => run(async () => (await del(`/api/admin/retention/${p.kind}`), onChanged()))}
              >
                Remove
              </ConfirmButton>
            ),
          },
        ]}
      />
      <form class="stack" onSubmit={save} aria-label="Set a policy">
        <Select label="Kind of record" value={kind} options={overview.kinds.map((k) => [k.kind, label(k.kind)] as [string, string])} onChange={(e) => setKind(e.currentTarget.value)} />
        <Select
          label="Rule"
          value={rule}
          options={[
            ['keep_days', 'Keep records younger than N days'],
            ['keep_latest', 'Keep the newest N (per deployment, dataset, experiment…)'],
          ]}
          onChange={(e) => setRule(e.currentTarget.value as 'keep_days' | 'keep_latest')}
        />
        <Field label="N" type="number" min={1} max={rule === 'keep_days' ? 36500 : 1000000} required value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        <Select
          label="Action"
          value={anonymizable ? action : 'delete'}
          disabled={!anonymizable}
          options={[['delete', 'Delete (files too)'], ...(anonymizable ? [['anonymize', `Anonymize: blank ${anonymizable}`] as [string, string]] : [])]}
          onChange={(e) => setAction(e.currentTarget.value)}
        />
        <label class="field">
          <span>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} /> Enabled
          </span>
        </label>
        <ErrorBox error={error} />
        <div class="row">
          <button type="submit" disabled={busy}>
            Save policy
          </button>
        </div>
      </form>
    </Section>
  );
}

function RunNow({ open, onStarted }: { open: boolean; onStarted: () => void }) {
  const { busy, error, run } = useAction();
  const [dry, setDry] = useState<DryRun | null>(null);
  return (
    <Section title="Run">
      <div class="row">
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(async () => setDry(await post<DryRun>('/api/admin/retention/run', { dry_run: true })))}>
          Dry run
        </button>
        <button type="button" disabled={busy || open} onClick={() => void run(async () => (await post('/api/admin/retention/run', { dry_run: false }), setDry(null), onStarted()))}>
          Run now
        </button>
      </div>
      <ErrorBox error={error} />
      {dry && (
        <>
          <p role="status">Dry run as of {fmtDate(dry.as_of)}: nothing was changed.</p>
          <Table
            caption="Dry run"
            rows={dry.kinds}
            empty="No policy is enabled."
            columns={[
              { head: 'Kind', cell: (k) => label(k.kind) },
              { head: 'Action', cell: (k) => k.action },
              { head: 'Would take', cell: (k) => fmtNum(k.count), num: true },
              { head: 'Oldest ids', cell: (k) => <code>{k.sample_ids.join(', ') || '–'}</code> },
            ]}
          />
        </>
      )}
    </Section>
  );
}

function LastRuns({ runs }: { runs: Run[] }) {
  return (
    <Section title="Last runs">
      <Table
        caption="Last retention runs"
        rows={runs}
        empty="No runs yet."
        columns={[
          { head: 'Queued', cell: (r) => fmtDate(r.created_at) },
          { head: 'Message', cell: (r) => r.message ?? '–' },
          { head: 'Status', cell: (r) => <Status value={r.status} /> },
          {
            head: 'Taken',
            cell: (r) =>
              (r.result as RunResult | null)?.kinds?.map((k) => `${label(k.kind)}: ${fmtNum(k.rows)} ${k.action === 'delete' ? 'deleted' : 'anonymized'}`).join('; ') ?? r.error ?? `${r.progress}%`,
          },
        ]}
      />
    </Section>
  );
}
