import { useState } from 'preact/hooks';
import { del, get, patch, post, put, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { DatasetVersionPicker, type DatasetVersionChoice } from '../pickers';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Progress, Section, Select, Status, Table, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';

type Policy = ListItem<'/api/privacy/policies'>;
type SessionSummary = ListItem<'/api/privacy/sessions'>;

/** Session statuses with a job still moving them (services/job-kinds.ts words them). */
const OPEN = ['detecting', 'transforming'];

/** The settings each action reads (services/privacy/rule-config.ts); shown as a hint under the config field. */
const ACTION_SETTINGS: Record<string, string> = {
  mask: 'char (one character), visible (0-64), from ("start" | "end"), keep_separators (true | false)',
  hash: 'length (8-64), prefix (text), algorithm ("hmac-sha256")',
  redact: 'replacement (text)',
  encrypt: 'none',
  generalize: 'date_to ("month" | "year"), age_band (1-100), postal_prefix (1-10), grid_degrees, ipv4_prefix (0-32)',
  suppress: 'scope ("cell" | "column")',
  pseudonymize: 'none',
};

const score = (v: number | null) => (v === null ? '–' : `${fmtNum(v, 3)}%`);

type Counts = GetBody<'/api/privacy/sessions/{session_id}'>['session']['counts'];
type Finding = GetBody<'/api/privacy/sessions/{session_id}/results'>['results'][number];

/**
 * A session's counts in the words every privacy page and the PDF use (services/privacy/finding-counts.ts is their one
 * source): the session page and its policy's page show the same figures.
 */
function CountFacts({ counts }: { counts: Counts }) {
  return (
    <dl class="facts" aria-label="Finding counts">
      <dt>Findings</dt>
      <dd>{fmtNum(counts.findings)}</dd>
      <dt>Transformed</dt>
      <dd>{fmtNum(counts.transformed)}</dd>
      <dt>Pending</dt>
      <dd>
        {fmtNum(counts.pending)}
        {counts.without_action > 0 && ` (${fmtNum(counts.without_action)} without an action)`}
      </dd>
      <dt>Excluded for this session</dt>
      <dd>{fmtNum(counts.excluded)}</dd>
      <dt>Compliance</dt>
      <dd>{score(counts.compliance_score)}</dd>
    </dl>
  );
}

/** The three counts a list row has room for. */
const countsCell = (c: Counts | null) => (c ? `${fmtNum(c.transformed)} / ${fmtNum(c.pending)} / ${fmtNum(c.excluded)}` : '–');

/** The project's privacy tab: its policies (with compliance figures), a new policy from a profile, its sessions. */
export function PrivacyTab({ projectId }: { projectId: string }) {
  const policies = usePaged(({ limit, offset }) => get<Page<Policy>>(`/api/privacy/policies${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const sessions = usePaged(({ limit, offset }) => get<Page<SessionSummary>>(`/api/privacy/sessions${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  return (
    <>
      <NewPolicy projectId={projectId} />
      <Section title="Privacy policies">
        <ErrorBox error={policies.error} />
        {policies.data ? (
          <Table
            caption="Privacy policies"
            rows={policies.data.items}
            empty="No policy yet: create one above."
            columns={[
              { head: 'Policy', cell: (p) => <Link href={`/app/privacy/policies/${p.id}`}>{p.name}</Link> },
              { head: 'Profile', cell: (p) => p.profile },
              { head: 'Status', cell: (p) => <Status value={p.status} /> },
              { head: 'Rules', cell: (p) => p.rules_count, num: true },
              { head: 'Compliance', cell: (p) => score(p.compliance_score), num: true },
              { head: 'Findings transformed / pending / excluded', cell: (p) => countsCell(p.counts) },
            ]}
          />
        ) : (
          !policies.error && <Loading />
        )}
        {policies.pager}
      </Section>
      <SessionsSection list={sessions} />
    </>
  );
}

function SessionsSection({ list }: { list: ReturnType<typeof usePaged<SessionSummary>> }) {
  return (
    <Section title="Privacy sessions">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Privacy sessions"
          rows={list.data.items}
          empty="No session yet: start one from a policy."
          columns={[
            { head: 'Session', cell: (s) => <Link href={`/app/privacy/sessions/${s.id}`}>{`${s.dataset_name} · ${fmtDate(s.created_at)}`}</Link> },
            { head: 'Policy', cell: (s) => s.policy_name },
            { head: 'Status', cell: (s) => <Status value={s.status} /> },
            { head: 'PII found', cell: (s) => fmtNum(s.pii_found), num: true },
            { head: 'Transformed', cell: (s) => fmtNum(s.transformed), num: true },
            { head: 'Pending', cell: (s) => fmtNum(s.pending), num: true },
            { head: 'Excluded', cell: (s) => fmtNum(s.excluded), num: true },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

function NewPolicy({ projectId }: { projectId: string }) {
  const profiles = useAsync(() => get<GetBody<'/api/privacy/profiles'>>('/api/privacy/profiles'), []);
  const [name, setName] = useState('');
  const [profile, setProfile] = useState('gdpr');
  const { busy, error, run } = useAction();
  const chosen = profiles.data?.profiles.find((p) => p.id === profile);
  return (
    <Section title="New privacy policy">
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await post<Answer<'/api/privacy/policies', 'post'>>('/api/privacy/policies', { project_id: projectId, name, profile });
            navigate(`/app/privacy/policies/${r.id}`);
          });
        }}
      >
        <Field label="Policy name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Select
          label="Compliance profile"
          value={profile}
          options={(profiles.data?.profiles ?? []).map((p) => [p.id, p.name] as [string, string])}
          onChange={(e) => setProfile(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy || !profiles.data}>
          Create policy
        </button>
      </form>
      {chosen && (
        <p class="muted">
          {chosen.pii_types.length} PII types, default action {chosen.default_action}: a type without a rule of its own takes it.
        </p>
      )}
      <ErrorBox error={error ?? profiles.error} />
    </Section>
  );
}

/** A policy: its figures and status, its rules (add, enable, delete), and sessions of it on the project's data. */
export function PolicyPage({ id }: { id: string }) {
  const d = useAsync(() => get<GetBody<'/api/privacy/policies/{policy_id}'>>(`/api/privacy/policies/${id}`), [id]);
  const sessions = usePaged(({ limit, offset }) => get<Page<SessionSummary>>(`/api/privacy/sessions${qs({ policy_id: id, limit, offset })}`), [id]);
  const { busy, error, run } = useAction();
  useTitle(d.data ? `Policy ${d.data.policy.name}` : 'Privacy policy');
  if (d.error) return <ErrorBox error={d.error} />;
  if (!d.data) return <Loading />;
  const { policy: p, rules } = d.data;
  return (
    <>
      <p class="crumbs">
        <Link href="/app/projects">Projects</Link> / <Link href={`/app/projects/${p.project_id}?tab=privacy`}>{p.project_name}</Link> /
      </p>
      <div class="title-row">
        <h1>{p.name}</h1>
        <div class="row">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => void run(() => patch(`/api/privacy/policies/${p.id}`, { status: p.status === 'active' ? 'draft' : 'active' }).then(d.reload))}
          >
            {p.status === 'active' ? 'Back to draft' : 'Activate'}
          </button>
          <ConfirmButton
            disabled={busy}
            confirm={{ question: `Delete the privacy policy '${p.name}'?`, consequence: 'Its rules and sessions are deleted too.', confirmLabel: 'Delete' }}
            onConfirm={() => void run(() => del(`/api/privacy/policies/${p.id}`).then(() => navigate(`/app/projects/${p.project_id}?tab=privacy`)))}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <ErrorBox error={error} />
      <p class="muted">
        Profile {p.profile} · <Status value={p.status} /> · compliance {score(p.compliance_score)} · created {fmtDate(p.created_at)}
      </p>
      {p.counts && p.counts_session_id ? (
        <Section title="Latest detection">
          <p class="muted">
            The counts of its <Link href={`/app/privacy/sessions/${p.counts_session_id}`}>latest detected session</Link> under the current rules.
          </p>
          <CountFacts counts={p.counts} />
        </Section>
      ) : (
        <p class="muted">No session of this policy has detected PII yet.</p>
      )}
      {p.description && <p>{p.description}</p>}
      <Section title="Rules">
        <p class="muted">The highest-priority enabled rule of a type applies; a type with no rule takes the profile's default action.</p>
        <Table
          caption="Rules of this policy"
          rows={rules}
          empty="No rule: the profile's defaults apply."
          columns={[
            { head: 'PII type', cell: (r) => r.pii_type },
            { head: 'Transformation', cell: (r) => r.action },
            { head: 'Priority', cell: (r) => r.priority, num: true },
            { head: 'Config', cell: (r) => <code>{JSON.stringify(r.config)}</code> },
            {
              head: 'Enabled',
              cell: (r) => (
                <label class="check">
                  <input
                    type="checkbox"
                    checked={r.is_enabled}
                    disabled={busy}
                    onChange={(e) => void run(() => patch(`/api/privacy/policies/${p.id}/rules/${r.id}`, { is_enabled: e.currentTarget.checked }).then(d.reload))}
                  />{' '}
                  <span class="sr-only">{`Rule ${r.pii_type} ${r.action} enabled`}</span>
                </label>
              ),
            },
            {
              head: 'Remove',
              cell: (r) => (
                <ConfirmButton
                  class="secondary small"
                  aria-label={`Delete rule ${r.pii_type} ${r.action}`}
                  disabled={busy}
                  confirm={{ question: `Delete the rule ${r.pii_type} → ${r.action} of policy '${p.name}'?`, consequence: 'Sessions run from now on no longer apply it.', confirmLabel: 'Delete' }}
                  onConfirm={() => void run(() => del(`/api/privacy/policies/${p.id}/rules/${r.id}`).then(d.reload))}
                >
                  Delete
                </ConfirmButton>
              ),
            },
          ]}
        />
        <AddRule policyId={p.id} onAdded={d.reload} />
      </Section>
      <NewSession policy={p} />
      <SessionsSection list={sessions} />
    </>
  );
}

function AddRule({ policyId, onAdded }: { policyId: string; onAdded: () => void }) {
  const types = useAsync(() => get<GetBody<'/api/privacy/pii-types'>>('/api/privacy/pii-types'), []);
  const actions = useAsync(() => get<GetBody<'/api/privacy/actions'>>('/api/privacy/actions'), []);
  const [form, setForm] = useState({ pii_type: 'email', action: 'mask', priority: '0', config: '' });
  const { busy, error, run, setError } = useAction();
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setForm({ ...form, [k]: e.currentTarget.value });
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        let config: unknown = {};
        if (form.config.trim()) {
          try {
            config = JSON.parse(form.config);
          } catch {
            setError('Config: not JSON (for example {"char": "#", "visible": 4})');
            return;
          }
        }
        void run(async () => {
          await post(`/api/privacy/policies/${policyId}/rules`, { pii_type: form.pii_type, action: form.action, priority: Number(form.priority), config });
          setForm({ ...form, config: '' });
          onAdded();
        });
      }}
    >
      <h3>Add a rule</h3>
      <div class="grid3">
        <Select label="PII type" value={form.pii_type} options={(types.data?.types ?? []).map((t) => [t.id, `${t.name} (${t.id})`] as [string, string])} onChange={set('pii_type')} />
        <Select label="Rule action" value={form.action} options={(actions.data?.actions ?? []).map((a) => [a.id, a.name] as [string, string])} onChange={set('action')} />
        <Field label="Priority" type="number" step={1} value={form.priority} onInput={set('priority')} hint="Higher wins." />
      </div>
      <Field label="Config (JSON)" value={form.config} placeholder="{}" onInput={set('config')} hint={`Settings of ${form.action}: ${ACTION_SETTINGS[form.action] ?? 'see the API'}.`} />
      <ErrorBox error={error ?? types.error ?? actions.error} />
      <div>
        <button type="submit" disabled={busy || !types.data || !actions.data}>
          Add rule
        </button>
      </div>
    </form>
  );
}

function NewSession({ policy }: { policy: Policy }) {
  const [choice, setChoice] = useState<DatasetVersionChoice>({ datasetId: '', versionId: '' });
  const [sampleSize, setSampleSize] = useState('');
  const [deepScan, setDeepScan] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <Section title="Run the policy on a dataset">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const s = await post<Answer<'/api/privacy/sessions', 'post'>>('/api/privacy/sessions', {
              policy_id: policy.id,
              dataset_version_id: choice.versionId,
              sample_size: sampleSize ? Number(sampleSize) : null,
              deep_scan: deepScan,
            });
            await post(`/api/privacy/sessions/${s.id}/detect`);
            navigate(`/app/privacy/sessions/${s.id}`);
          });
        }}
      >
        <div class="grid3">
          <DatasetVersionPicker projectId={policy.project_id} value={choice} onChange={setChoice} />
          <Field label="Sample size (rows)" type="number" min={1} value={sampleSize} onInput={(e) => setSampleSize(e.currentTarget.value)} hint="Empty: every row (up to 5 million cells)." />
          <label class="check">
            <input type="checkbox" checked={deepScan} onChange={(e) => setDeepScan(e.currentTarget.checked)} /> Deep scan (free text cell by cell)
          </label>
        </div>
        <ErrorBox error={error} />
        <div>
          <button type="submit" disabled={busy || !choice.versionId}>
            Start session and detect
          </button>
        </div>
      </form>
    </Section>
  );
}

/** A session: detect, the PII found per column, transform, then the anonymized CSV and the PDF report. */
export function PrivacySessionPage({ id }: { id: string }) {
  const s = useAsync(() => get<GetBody<'/api/privacy/sessions/{session_id}'>>(`/api/privacy/sessions/${id}`).then((r) => r.session), [id]);
  const session = s.data;
  const open = !!session && OPEN.includes(session.status);
  const detected = !!session && session.pii_columns !== null;
  const [bucket, setBucket] = useState('');
  const results = useAsync(
    () => (detected ? get<GetBody<'/api/privacy/sessions/{session_id}/results'>>(`/api/privacy/sessions/${id}/results${qs({ confidence: bucket })}`).then((r) => r.results) : Promise.resolve(null)),
    [id, detected, session?.status, bucket],
  );
  const [report, setReport] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  usePoll(s.reload, 1000, open);
  useTitle(session ? `Privacy session on ${session.dataset_name}` : 'Privacy session');
  if (s.error) return <ErrorBox error={s.error} />;
  if (!session) return <Loading />;
  const act = (path: string) => void run(() => post(`/api/privacy/sessions/${id}/${path}`).then(s.reload));
  // An override changes the finding and the session's counts.
  const reloadAll = () => {
    results.reload();
    s.reload();
  };
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${session.project_id}?tab=privacy`}>Project privacy</Link> / <Link href={`/app/privacy/policies/${session.policy_id}`}>{session.policy_name}</Link> /
      </p>
      <div class="title-row">
        <h1>Privacy session on {session.dataset_name}</h1>
        <div class="row">
          {open && session.job_id && (
            <button type="button" class="danger" disabled={busy} onClick={() => void run(() => post(`/api/jobs/${session.job_id}/cancel`).then(s.reload))}>
              Cancel
            </button>
          )}
          {!open && (
            <button type="button" class="secondary" disabled={busy} onClick={() => act('detect')}>
              {detected ? 'Detect again' : 'Detect PII'}
            </button>
          )}
          {!open && session.status !== 'completed' && (
            <button type="button" disabled={busy} onClick={() => act('transform')}>
              Anonymize
            </button>
          )}
          {session.status === 'completed' && (
            <a class="button" href={`/api/privacy/sessions/${id}/download`} download>
              Download anonymized CSV
            </a>
          )}
          {session.status === 'completed' && (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => void run(async () => setReport((await get<GetBody<'/api/privacy/sessions/{session_id}/report'>>(`/api/privacy/sessions/${id}/report`)).download_url))}
            >
              Make the PDF report
            </button>
          )}
        </div>
      </div>
      <ErrorBox error={error} />
      {report && (
        <p role="status">
          Report ready: <a href={report}>download the PDF</a>.
        </p>
      )}
      <Section title="Status">
        <p aria-live="polite">
          <Status value={session.status} />
          {session.progress_message ? ` · ${session.progress_message}` : ''}
        </p>
        {open && <Progress value={session.progress / 100} label="Session progress" />}
        {session.error && <p class="error">{session.error}</p>}
        <dl class="facts">
          <dt>Rows scanned</dt>
          <dd>{fmtNum(session.rows_scanned)}</dd>
          <dt>Columns analyzed</dt>
          <dd>{fmtNum(session.columns_analyzed)}</dd>
          <dt>Columns with PII</dt>
          <dd>{fmtNum(session.pii_columns)}</dd>
          <dt>PII instances</dt>
          <dd>{fmtNum(session.pii_instances)}</dd>
          <dt>Sample</dt>
          <dd>
            {session.sample_size === null ? 'every row' : `${session.sample_size} rows`}
            {session.deep_scan ? ', deep scan' : ''}
          </dd>
        </dl>
        <CountFacts counts={session.counts} />
      </Section>
      {detected && (
        <Section title="Detected PII">
          <div class="row filters">
            <Select
              label="Confidence"
              value={bucket}
              options={[
                ['', 'any'],
                ['high', 'high (≥ 0.9)'],
                ['medium', 'medium (0.7–0.9)'],
                ['low', 'low (< 0.7)'],
              ]}
              onChange={(e) => setBucket(e.currentTarget.value)}
            />
          </div>
          <ErrorBox error={results.error} />
          {results.data ? (
            <Table
              caption="Detected PII by column"
              rows={results.data}
              empty="No PII found."
              columns={[
                { head: 'Column', cell: (r) => r.column },
                { head: 'PII type', cell: (r) => r.pii_type },
                { head: 'Scope', cell: (r) => r.scope },
                { head: 'Confidence', cell: (r) => fmtNum(r.confidence, 2), num: true },
                { head: 'Instances', cell: (r) => r.instances, num: true },
                { head: 'Sample (masked)', cell: (r) => <span class="clip">{r.sample ?? '–'}</span> },
                { head: 'Action', cell: (r) => <FindingAction finding={r} sessionId={id} disabled={open} onChange={reloadAll} /> },
                { head: 'Transformed', cell: (r) => (r.transformed ? 'yes' : 'no') },
                { head: 'This session', cell: (r) => <FindingExclusion finding={r} sessionId={id} disabled={open} onChange={reloadAll} /> },
              ]}
            />
          ) : (
            <Loading />
          )}
        </Section>
      )}
    </>
  );
}

/** Overrides a finding for one session (PUT .../findings/{id}); failures show beside the control. */
function useFindingOverride(sessionId: string, finding: Finding, onChange: () => void) {
  const { busy, error, run } = useAction();
  const send = (body: { excluded?: boolean; action?: string | null }) => void run(() => put(`/api/privacy/sessions/${sessionId}/findings/${finding.id}`, body).then(onChange));
  return { busy, error, send };
}

/** The action of a finding in this session: the policy's, or another one for this session only. */
function FindingAction({ finding, sessionId, disabled, onChange }: { finding: Finding; sessionId: string; disabled: boolean; onChange: () => void }) {
  const { busy, error, send } = useFindingOverride(sessionId, finding, onChange);
  if (finding.excluded) return <span class="muted">excluded</span>;
  return (
    <>
      <select
        aria-label={`Action for ${finding.pii_type} in ${finding.column}`}
        value={finding.action_override ?? ''}
        disabled={disabled || busy}
        onChange={(e) => send({ action: e.currentTarget.value || null })}
      >
        <option value="">{finding.policy_action ? `policy: ${finding.policy_action}` : 'policy: none'}</option>
        {Object.keys(ACTION_SETTINGS).map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      {error && <span class="error"> {error}</span>}
    </>
  );
}

/** Leaves a finding out of this session (never transformed), or takes it back. */
function FindingExclusion({ finding, sessionId, disabled, onChange }: { finding: Finding; sessionId: string; disabled: boolean; onChange: () => void }) {
  const { busy, error, send } = useFindingOverride(sessionId, finding, onChange);
  return (
    <>
      <button
        type="button"
        class="secondary small"
        disabled={disabled || busy}
        aria-label={`${finding.excluded ? 'Include' : 'Exclude'} ${finding.pii_type} in ${finding.column}`}
        onClick={() => send({ excluded: !finding.excluded })}
      >
        {finding.excluded ? 'Include' : 'Exclude'}
      </button>
      {error && <span class="error"> {error}</span>}
    </>
  );
}
