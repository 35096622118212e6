import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AlertChannel, AlertDelivery, type ChannelType, type JsonMap } from '../../entities';
import type { Mailer } from '../../platform/mail';
import { randomToken } from '../../platform/secrets';
import type { Access } from '../access';
import { ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';
import { checkedChannelConfig, unmaskedConfig } from './channel-config';
import { alertUrl, deliver, recordAttempt, type AlertMessage } from './notifier';

/** How long a channel test waits for the receiver. */
const CHANNEL_TEST_TIMEOUT_MS = 5_000;

export interface ChannelSettings {
  allowPrivateTargets: boolean;
  failingAfter: number;
  appBaseUrl: string;
}

export interface CreateChannel {
  name: string;
  type: ChannelType;
  config: unknown;
  secret?: string;
  is_enabled?: boolean;
}

export interface UpdateChannel {
  name?: string;
  config?: unknown;
  secret?: string;
  is_enabled?: boolean;
}

export interface ChannelTestResult {
  delivered: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  attempt_id: string;
}

/** A webhook's generated signing secret (Stripe's `whsec_` spelling, so it is recognisable where it is pasted). */
function generatedSecret(): string {
  return `whsec_${randomToken(24)}`;
}

/** Alert channels of a project: where notifications go. Viewers read, editors change and test. */
export class AlertChannelService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly mailer: Mailer,
    private readonly settings: ChannelSettings,
  ) {}

  /** The new channel and, for a webhook, its secret: the only answer that shows it. */
  async create(userId: string, projectId: string, p: CreateChannel): Promise<{ channel: AlertChannel; secret: string | null }> {
    await this.access.project(userId, projectId, 'editor');
    if (p.secret !== undefined && p.type !== 'webhook') throw ValidationError.field(['body', 'secret'], 'Only webhook channels take a secret');
    const config = await checkedChannelConfig(p.type, p.config, this.settings.allowPrivateTargets);
    const secret = p.type === 'webhook' ? (p.secret ?? generatedSecret()) : null;
    const repo = this.ds.getRepository(AlertChannel);
    const channel = await repo.save(repo.create({ projectId, name: p.name, type: p.type, config: config as JsonMap, secret, isEnabled: p.is_enabled ?? true, createdBy: userId }));
    return { channel, secret };
  }

  async list(userId: string, projectId: string, q: PageQuery): Promise<Page<AlertChannel>> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(AlertChannel).findAndCount({ where: { projectId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  get(userId: string, id: string, minRole: 'viewer' | 'editor' = 'viewer'): Promise<AlertChannel> {
    return this.access.alertChannel(userId, id, minRole);
  }

  async update(userId: string, id: string, p: UpdateChannel): Promise<AlertChannel> {
    const channel = await this.get(userId, id, 'editor');
    if (p.secret !== undefined && channel.type !== 'webhook') throw ValidationError.field(['body', 'secret'], 'Only webhook channels take a secret');
    if (p.config !== undefined) channel.config = (await checkedChannelConfig(channel.type, unmaskedConfig(channel.type, channel.config, p.config), this.settings.allowPrivateTargets)) as JsonMap;
    if (p.name !== undefined) channel.name = p.name;
    if (p.secret !== undefined) channel.secret = p.secret;
    if (p.is_enabled !== undefined) channel.isEnabled = p.is_enabled;
    return this.ds.getRepository(AlertChannel).save(channel);
  }

  /** Deletes the channel and takes it out of every rule of its project. */
  async remove(userId: string, id: string): Promise<void> {
    const channel = await this.get(userId, id, 'editor');
    await this.ds.transaction(async (em) => {
      await em.query('UPDATE alert_rules SET channel_ids = array_remove(channel_ids, $1::uuid), updated_at = now() WHERE project_id = $2 AND $1::uuid = ANY(channel_ids)', [
        channel.id,
        channel.projectId,
      ]);
      await em.getRepository(AlertChannel).delete({ id: channel.id });
    });
  }

  /** A real test message, one attempt (a disabled channel too: testing it is how one finds out it works), recorded. */
  async test(userId: string, id: string): Promise<ChannelTestResult> {
    const channel = await this.get(userId, id, 'editor');
    const { project } = await this.access.project(userId, channel.projectId);
    const key = randomUUID();
    const result = await deliver(channel, testMessage(project, key, this.settings.appBaseUrl), {
      idempotencyKey: key,
      mailer: this.mailer,
      allowPrivateTargets: this.settings.allowPrivateTargets,
      // The caller waits for the answer: a receiver that hangs is reported within seconds, not the deliveries' 10.
      timeoutMs: CHANNEL_TEST_TIMEOUT_MS,
    });
    const attempt = await recordAttempt(this.ds, channel, null, 1, result, this.settings.failingAfter);
    return { delivered: result.delivered, status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error, attempt_id: String(attempt.id) };
  }

  async deliveries(userId: string, id: string, q: PageQuery): Promise<Page<AlertDelivery>> {
    const channel = await this.get(userId, id);
    const [items, total] = await this.ds.getRepository(AlertDelivery).findAndCount({ where: { channelId: channel.id }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }
}

/** What a channel test sends: a sample alert, marked as a test everywhere a reader looks. */
function testMessage(project: { id: string; name: string }, key: string, appBaseUrl: string): AlertMessage {
  const now = new Date().toISOString();
  const alert = {
    id: key,
    project_id: project.id,
    rule_id: null,
    rule_name: 'Test notification',
    deployment_id: null,
    fingerprint: 'test',
    labels: { test: 'true' },
    metric: 'error_rate',
    operator: 'gt',
    threshold: 0.05,
    state: 'firing',
    severity: 'info',
    value: 0.1,
    estimated: false,
    samples: 100,
    first_seen_at: now,
    last_seen_at: now,
    last_notified_at: null,
    notification_count: 0,
    escalated_at: null,
    silenced: false,
  };
  return { reason: 'test', alert, rule: { id: 'test', name: 'Test notification' }, project: { id: project.id, name: project.name }, url: alertUrl(appBaseUrl, project.id, 'test') };
}
