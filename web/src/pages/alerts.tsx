import { useState } from 'preact/hooks';
import { del, get, patch, post, qs, type Answer, type GetBody, type ListItem, type Page } from '../api';
import { Link, useLocation } from '../router';
import { ErrorBox, Field, fmtDate, fmtNum, Loading, Section, Select, Status, Table, Tabs, useAction, useAsync, usePaged, usePoll, useTitle } from '../ui';
import { ConfirmButton } from '../confirm';

type AlertRow = ListItem<'/api/mlops/projects/{project_id}/alerts'>;
type Rule = ListItem<'/api/mlops/projects/{project_id}/alert-rules'>;
type Channel = ListItem<'/api/mlops/projects/{project_id}/channels'>;
type Silence = ListItem<'/api/mlops/alerts/suppressions'>;
type HistoryRow = ListItem<'/api/mlops/alerts/history'>;
type Delivery = ListItem<'/api/mlops/alerts/channels/{channel_id}/deliveries'>;
type TestResult = Answer<'/api/mlops/alerts/channels/{channel_id}/test', 'post'>;
type RuleCreate = Answer<'/api/mlops/projects/{project_id}/alert-rules', 'post'>;
type ChannelCreate = Answer<'/api/mlops/projects/{project_id}/channels', 'post'>;
type Project = GetBody<'/api/projects/{project_id}'>;

const METRICS = ['drift_psi', 'accuracy_degradation', 'error_rate', 'latency_p99', 'latency_p95', 'request_volume', 'job_failures', 'model_staleness', 'prediction_anomaly'] as const;
const OPERATORS: [string, string][] = [
  ['gt', '>'],
  ['gte', '≥'],
  ['lt', '<'],
  ['lte', '≤'],
  ['eq', '='],
  ['neq', '≠'],
];
const SEVERITIES = ['info', 'warning', 'critical'] as const;
const OP_TEXT = Object.fromEntries(OPERATORS) as Record<string, string>;

const TABS: [string, string][] = [
  ['inbox', 'Inbox'],
  ['rules', 'Rules'],
  ['channels', 'Channels'],
  ['silences', 'Silences'],
  ['history', 'History'],
];

/** A project's alerts: the inbox people work from, and the rules, channels and silences behind it. */
export function AlertsPage({ projectId }: { projectId: string }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'inbox';
  const project = useAsync(() => get<Project>(`/api/projects/${projectId}`), [projectId]);
  useTitle(project.data ? `Alerts · ${project.data.project.name}` : 'Alerts');
  if (project.error) return <ErrorBox error={project.error} />;
  return (
    <>
      <p class="crumbs">
        <Link href={`/app/projects/${projectId}?tab=deployments`}>{project.data?.project.name ?? 'Project'}</Link> /
      </p>
      <h1>Alerts</h1>
      <Tabs tabs={TABS} current={tab} base={`/app/projects/${projectId}/alerts`} />
      {tab === 'inbox' && <AlertInbox projectId={projectId} />}
      {tab === 'rules' && <RulesTab projectId={projectId} />}
      {tab === 'channels' && <ChannelsTab projectId={projectId} />}
      {tab === 'silences' && <SilencesTab projectId={projectId} />}
      {tab === 'history' && <HistoryTab projectId={projectId} />}
    </>
  );
}

/** Alerts with their state, filtered; acknowledge and resolve in place. `deploymentId` narrows it to one deployment. */
export function AlertInbox({ projectId, deploymentId }: { projectId: string; deploymentId?: string }) {
  const [state, setState] = useState(deploymentId ? '' : 'firing');
  const [severity, setSeverity] = useState('');
  const list = usePaged(
    ({ limit, offset }) => get<Page<AlertRow>>(`/api/mlops/projects/${projectId}/alerts${qs({ state, severity, deployment_id: deploymentId, limit, offset })}`),
    [projectId, state, severity, deploymentId],
  );
  const { busy, error, run } = useAction();
  usePoll(list.reload, 5000, true);
  const act = (a: AlertRow, what: 'acknowledge' | 'resolve') => void run(() => post(`/api/mlops/alerts/${a.id}/${what}`, {}).then(list.reload));
  return (
    <Section title={deploymentId ? 'Alerts of this deployment' : 'Alert inbox'}>
      <div class="row filters">
        <Select label="State" value={state} options={[['', 'any'], 'firing', 'acknowledged', 'resolved']} onChange={(e) => setState(e.currentTarget.value)} />
        <Select label="Severity" value={severity} options={[['', 'any'], ...SEVERITIES]} onChange={(e) => setSeverity(e.currentTarget.value)} />
      </div>
      <ErrorBox error={list.error ?? error} />
      {list.data ? (
        <Table
          caption="Alerts"
          rows={list.data.items}
          empty={state === 'firing' ? 'Nothing is firing.' : 'No alert.'}
          columns={[
            { head: 'Rule', cell: (a) => a.rule_name },
            { head: 'State', cell: (a) => <Status value={a.state} /> },
            { head: 'Severity', cell: (a) => <Status value={a.severity} /> },
            {
              head: 'Observed',
              cell: (a) => `${a.metric} ${fmtNum(a.value)} ${OP_TEXT[a.operator] ?? a.operator} ${fmtNum(a.threshold)}${a.estimated ? ' (estimated)' : ''}`,
            },
            { head: 'Deployment', cell: (a) => (a.deployment_id ? <Link href={`/app/deployments/${a.deployment_id}?tab=alerts`}>open</Link> : '–') },
            { head: 'Since', cell: (a) => fmtDate(a.first_seen_at) },
            { head: 'Notified', cell: (a) => `${a.notification_count}×${a.silenced ? ' (silenced)' : ''}` },
            {
              head: 'Actions',
              cell: (a) => (
                <span class="row">
                  {a.state === 'firing' && (
                    <button type="button" class="secondary small" disabled={busy} aria-label={`Acknowledge ${a.rule_name}`} onClick={() => act(a, 'acknowledge')}>
                      Acknowledge
                    </button>
                  )}
                  {a.state !== 'resolved' && (
                    <button type="button" class="secondary small" disabled={busy} aria-label={`Resolve ${a.rule_name}`} onClick={() => act(a, 'resolve')}>
                      Resolve
                    </button>
                  )}
                </span>
              ),
            },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

function RulesTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Rule>>(`/api/mlops/projects/${projectId}/alert-rules${qs({ limit, offset })}`), [projectId]);
  const channels = useAsync(() => get<Page<Channel>>(`/api/mlops/projects/${projectId}/channels?limit=100`), [projectId]);
  const { busy, error, run } = useAction();
  const channelName = (id: string) => channels.data?.items.find((c) => c.id === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <RuleForm projectId={projectId} channels={channels.data?.items ?? []} onCreated={list.reload} />
      <Section title="Rules">
        <ErrorBox error={list.error ?? error} />
        {list.data ? (
          <Table
            caption="Alert rules"
            rows={list.data.items}
            empty="No rule yet: nothing is watched."
            columns={[
              { head: 'Name', cell: (r) => r.name },
              { head: 'Condition', cell: (r) => `${r.metric} ${OP_TEXT[r.operator] ?? r.operator} ${fmtNum(r.threshold)} over ${r.window_minutes} min` },
              { head: 'Severity', cell: (r) => <Status value={r.severity} /> },
              { head: 'Channels', cell: (r) => (r.channel_ids.length ? r.channel_ids.map(channelName).join(', ') : '–') },
              { head: 'Cooldown', cell: (r) => `${r.cooldown_minutes} min${r.escalation_minutes ? `, escalates to ${r.escalation_severity} after ${r.escalation_minutes} min` : ''}` },
              { head: 'Last evaluated', cell: (r) => fmtDate(r.last_evaluated_at) },
              {
                head: 'Actions',
                cell: (r) => (
                  <span class="row">
                    <button
                      type="button"
                      class="secondary small"
                      disabled={busy}
                      aria-label={`${r.is_enabled ? 'Disable' : 'Enable'} ${r.name}`}
                      onClick={() => void run(() => patch(`/api/mlops/alerts/rules/${r.id}`, { is_enabled: !r.is_enabled }).then(list.reload))}
                    >
                      {r.is_enabled ? 'Disable' : 'Enable'}
                    </button>
                    <ConfirmButton
                      class="secondary small"
                      disabled={busy}
                      aria-label={`Delete ${r.name}`}
                      confirm={{ question: `Delete the alert rule '${r.name}'?`, consequence: 'It stops being evaluated; its past alerts stay.', confirmLabel: 'Delete' }}
                      onConfirm={() => void run(() => del(`/api/mlops/alerts/rules/${r.id}`).then(list.reload))}
                    >
                      Delete
                    </ConfirmButton>
                  </span>
                ),
              },
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

function RuleForm({ projectId, channels, onCreated }: { projectId: string; channels: Channel[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [metric, setMetric] = useState<string>('drift_psi');
  const [operator, setOperator] = useState('gt');
  const [threshold, setThreshold] = useState('0.2');
  const [windowMinutes, setWindowMinutes] = useState('60');
  const [severity, setSeverity] = useState('warning');
  const [cooldown, setCooldown] = useState('60');
  const [escalation, setEscalation] = useState('');
  const [escalateTo, setEscalateTo] = useState('critical');
  const [channelIds, setChannelIds] = useState<string[]>([]);
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await post<RuleCreate>(`/api/mlops/projects/${projectId}/alert-rules`, {
        name,
        metric,
        operator,
        threshold: Number(threshold),
        window_minutes: Number(windowMinutes),
        severity,
        cooldown_minutes: Number(cooldown),
        channel_ids: channelIds,
        ...(escalation && severity !== 'critical' ? { escalation_minutes: Number(escalation), escalation_severity: severity === 'info' ? escalateTo : 'critical' } : {}),
      });
      setName('');
      onCreated();
    });
  };
  return (
    <Section title="New rule">
      <form onSubmit={submit} class="grid">
        <Field label="Name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Select label="Metric" value={metric} options={[...METRICS]} onChange={(e) => setMetric(e.currentTarget.value)} />
        <Select label="Operator" value={operator} options={OPERATORS} onChange={(e) => setOperator(e.currentTarget.value)} />
        <Field label="Threshold" type="number" step="any" required value={threshold} onInput={(e) => setThreshold(e.currentTarget.value)} />
        <Field label="Window (minutes)" type="number" min={1} value={windowMinutes} onInput={(e) => setWindowMinutes(e.currentTarget.value)} />
        <Select label="Severity" value={severity} options={[...SEVERITIES]} onChange={(e) => setSeverity(e.currentTarget.value)} />
        <Field label="Cooldown (minutes)" type="number" min={1} max={1440} value={cooldown} onInput={(e) => setCooldown(e.currentTarget.value)} />
        {severity !== 'critical' && (
          <>
            <Field label="Escalate after (minutes)" hint="Empty: no escalation" type="number" min={1} max={1440} value={escalation} onInput={(e) => setEscalation(e.currentTarget.value)} />
            {severity === 'info' && <Select label="Escalate to" value={escalateTo} options={['warning', 'critical']} onChange={(e) => setEscalateTo(e.currentTarget.value)} />}
          </>
        )}
        <fieldset class="field">
          <legend>Channels</legend>
          {channels.length === 0 && <small class="muted">No channel yet (Channels tab).</small>}
          {channels.map((c) => (
            <label key={c.id} class="check">
              <input type="checkbox" checked={channelIds.includes(c.id)} onChange={(e) => setChannelIds((ids) => (e.currentTarget.checked ? [...ids, c.id] : ids.filter((i) => i !== c.id)))} />
              {c.name} ({c.type})
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" disabled={busy}>
            Create rule
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
    </Section>
  );
}

function ChannelsTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Channel>>(`/api/mlops/projects/${projectId}/channels${qs({ limit, offset })}`), [projectId]);
  const [tested, setTested] = useState<{ id: string; result: TestResult }>();
  const [shown, setShown] = useState<string>();
  const { busy, error, run } = useAction();
  return (
    <>
      <ChannelForm projectId={projectId} onCreated={list.reload} />
      <Section title="Channels">
        <ErrorBox error={list.error ?? error} />
        {tested && (
          <p role="status" class={tested.result.delivered ? 'ok' : 'error'}>
            Test message {tested.result.delivered ? 'delivered' : 'not delivered'}
            {tested.result.status_code ? ` (HTTP ${tested.result.status_code})` : ''} in {fmtNum(tested.result.latency_ms, 3)} ms{tested.result.error ? `: ${tested.result.error}` : ''}
          </p>
        )}
        {list.data ? (
          <Table
            caption="Notification channels"
            rows={list.data.items}
            empty="No channel yet."
            columns={[
              { head: 'Name', cell: (c) => c.name },
              { head: 'Type', cell: (c) => c.type },
              { head: 'Status', cell: (c) => <Status value={c.is_enabled ? c.status : 'disabled'} /> },
              { head: 'Last delivery', cell: (c) => fmtDate(c.last_delivery_at) },
              { head: 'Last error', cell: (c) => c.last_error ?? '–' },
              {
                head: 'Actions',
                cell: (c) => (
                  <span class="row">
                    <button
                      type="button"
                      class="secondary small"
                      disabled={busy}
                      aria-label={`Send test to ${c.name}`}
                      onClick={() =>
                        void run(async () => {
                          const result = await post<TestResult>(`/api/mlops/alerts/channels/${c.id}/test`, {});
                          setTested({ id: c.id, result });
                          list.reload();
                        })
                      }
                    >
                      Send test
                    </button>
                    <button type="button" class="secondary small" aria-label={`Deliveries of ${c.name}`} onClick={() => setShown(shown === c.id ? undefined : c.id)}>
                      Deliveries
                    </button>
                    <ConfirmButton
                      class="secondary small"
                      disabled={busy}
                      aria-label={`Delete ${c.name}`}
                      confirm={{ question: `Delete the alert channel '${c.name}'?`, consequence: 'Alerts are no longer sent through it.', confirmLabel: 'Delete' }}
                      onConfirm={() => void run(() => del(`/api/mlops/alerts/channels/${c.id}`).then(list.reload))}
                    >
                      Delete
                    </ConfirmButton>
                  </span>
                ),
              },
            ]}
          />
        ) : (
          !list.error && <Loading />
        )}
        {list.pager}
      </Section>
      {shown && <Deliveries channelId={shown} />}
    </>
  );
}

function Deliveries({ channelId }: { channelId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Delivery>>(`/api/mlops/alerts/channels/${channelId}/deliveries${qs({ limit, offset })}`), [channelId]);
  return (
    <Section title="Delivery attempts">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Delivery attempts"
          rows={list.data.items}
          empty="No delivery yet."
          columns={[
            { head: 'When', cell: (d) => fmtDate(d.created_at) },
            { head: 'Status', cell: (d) => <Status value={d.status} /> },
            { head: 'HTTP', cell: (d) => d.status_code ?? '–', num: true },
            { head: 'Latency (ms)', cell: (d) => fmtNum(d.latency_ms, 3), num: true },
            { head: 'Attempt', cell: (d) => d.attempt, num: true },
            { head: 'Error', cell: (d) => d.error ?? '–' },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}

function ChannelForm({ projectId, onCreated }: { projectId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'email' | 'slack' | 'webhook'>('email');
  const [target, setTarget] = useState('');
  const [secret, setSecret] = useState<string>();
  const { busy, error, run } = useAction();
  const config = () => (type === 'email' ? { recipients: target.split(/[,\s]+/).filter(Boolean) } : type === 'slack' ? { webhook_url: target } : { url: target });
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const created = await post<ChannelCreate>(`/api/mlops/projects/${projectId}/channels`, { name, type, config: config() });
      setSecret(created.secret ?? undefined);
      setName('');
      setTarget('');
      onCreated();
    });
  };
  return (
    <Section title="New channel">
      <form onSubmit={submit} class="grid">
        <Field label="Name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Select
          label="Type"
          value={type}
          options={[
            ['email', 'Email'],
            ['slack', 'Slack (incoming webhook)'],
            ['webhook', 'Webhook (signed)'],
          ]}
          onChange={(e) => setType(e.currentTarget.value as typeof type)}
        />
        <Field
          label={type === 'email' ? 'Recipients' : type === 'slack' ? 'Slack webhook URL' : 'Webhook URL'}
          hint={type === 'email' ? 'Addresses separated by commas' : undefined}
          required
          value={target}
          onInput={(e) => setTarget(e.currentTarget.value)}
        />
        <div>
          <button type="submit" disabled={busy}>
            Add channel
          </button>
        </div>
      </form>
      {secret && (
        <p role="status">
          Signing secret (shown once; deliveries carry <code>X-Mlsvc-Signature</code>): <code>{secret}</code>
        </p>
      )}
      <ErrorBox error={error} />
    </Section>
  );
}

function SilencesTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<Silence>>(`/api/mlops/alerts/suppressions${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  const rules = useAsync(() => get<Page<Rule>>(`/api/mlops/projects/${projectId}/alert-rules?limit=100`), [projectId]);
  const [ruleId, setRuleId] = useState('');
  const [hours, setHours] = useState('2');
  const [comment, setComment] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const endsAt = new Date(Date.now() + Number(hours) * 3600_000).toISOString();
      await post(`/api/mlops/alerts/suppressions`, { project_id: projectId, comment, matchers: { rule_id: ruleId }, ends_at: endsAt });
      setComment('');
      list.reload();
    });
  };
  const ruleName = (id?: string | null) => (id ? (rules.data?.items.find((r) => r.id === id)?.name ?? id.slice(0, 8)) : undefined);
  return (
    <>
      <Section title="New silence">
        <form onSubmit={submit} class="grid">
          <Select
            label="Rule"
            value={ruleId}
            required
            options={[['', 'choose a rule'], ...(rules.data?.items ?? []).map((r): [string, string] => [r.id, r.name])]}
            onChange={(e) => setRuleId(e.currentTarget.value)}
          />
          <Field label="For (hours)" type="number" min={0.1} step="any" value={hours} onInput={(e) => setHours(e.currentTarget.value)} />
          <Field label="Comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
          <div>
            <button type="submit" disabled={busy || !ruleId}>
              Silence
            </button>
          </div>
        </form>
        <ErrorBox error={error} />
      </Section>
      <Section title="Silences">
        <ErrorBox error={list.error} />
        {list.data ? (
          <Table
            caption="Silences"
            rows={list.data.items}
            empty="No silence."
            columns={[
              { head: 'State', cell: (s) => <Status value={s.state} /> },
              {
                head: 'Matches',
                cell: (s) =>
                  Object.entries(s.matchers)
                    .map(([k, v]) => `${k}=${k === 'rule_id' ? ruleName(v as string) : typeof v === 'string' ? v : JSON.stringify(v)}`)
                    .join(', '),
              },
              { head: 'From', cell: (s) => fmtDate(s.starts_at) },
              { head: 'Until', cell: (s) => fmtDate(s.ends_at) },
              { head: 'Comment', cell: (s) => s.comment || '–' },
              {
                head: 'Actions',
                cell: (s) => (
                  <ConfirmButton
                    class="secondary small"
                    disabled={busy}
                    aria-label="Delete the silence"
                    confirm={{ question: 'Delete this silence?', consequence: 'The alerts it silenced notify again.', confirmLabel: 'Delete' }}
                    onConfirm={() => void run(() => del(`/api/mlops/alerts/suppressions/${s.id}`).then(list.reload))}
                  >
                    Delete
                  </ConfirmButton>
                ),
              },
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

function HistoryTab({ projectId }: { projectId: string }) {
  const list = usePaged(({ limit, offset }) => get<Page<HistoryRow>>(`/api/mlops/alerts/history${qs({ project_id: projectId, limit, offset })}`), [projectId]);
  return (
    <Section title="History">
      <ErrorBox error={list.error} />
      {list.data ? (
        <Table
          caption="Alert history"
          rows={list.data.items}
          empty="Nothing has happened yet."
          columns={[
            { head: 'When', cell: (h) => fmtDate(h.created_at) },
            { head: 'Event', cell: (h) => h.event },
            { head: 'State', cell: (h) => `${h.from_state ?? '–'} → ${h.to_state}` },
            { head: 'Severity', cell: (h) => <Status value={h.severity} /> },
            { head: 'Value', cell: (h) => fmtNum(h.value), num: true },
          ]}
        />
      ) : (
        !list.error && <Loading />
      )}
      {list.pager}
    </Section>
  );
}
