import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { DataSource, EntityManager } from 'typeorm';
import { AlertChannel, AlertNotification, type JsonMap, Project, RegisteredModel, RegistryEvent, RegistryVersion } from '../../entities';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import { deliveryWorkflowId } from '../../workflows/job-input';
import type { ChannelMessage } from '../alerts/notifier';
import type { WorkflowIn } from '../job-kinds';
import type { Page, PageQuery } from '../lists';

/** Alert notifications and registry events share one delivery workflow (retries, backoff, `alert_deliveries`). */
const DELIVERY_WORKFLOW = 'alertDeliveryWorkflow' satisfies WorkflowIn<typeof import('../../workflows/alerts-evaluate')>;

/** A notification owed this long ago and still pending was never handed to its delivery (a crash after the commit). */
const STALE_MS = 2 * 60_000;

export interface NewRegistryEvent {
  projectId: string;
  registeredModelId: string | null;
  versionId?: string | null;
  kind: string;
  /** Null: the system. */
  actorId: string | null;
  details: Record<string, unknown>;
}

/**
 * Notifications written in a transaction, handed to their delivery workflows once it committed (an uncommitted
 * outbox row must not be delivered, and a committed one must be).
 */
export class Owed {
  readonly notificationIds: string[] = [];
  readonly projectIds = new Set<string>();
}

/**
 * The registry's append-only history and its notifications: each event is written with one outbox row
 * (`alert_notifications`, reason `registry_event`) per enabled channel of the project, in the caller's transaction,
 * and delivered after commit by the alert delivery workflow, as signed webhooks, Slack or email.
 */
export class RegistryEvents {
  constructor(
    private readonly ds: DataSource,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Appends `e` in `em`'s transaction and owes its notifications (collected in `owed`). */
  async append(em: EntityManager, e: NewRegistryEvent, owed: Owed): Promise<RegistryEvent> {
    const repo = em.getRepository(RegistryEvent);
    const event = repo.create({
      projectId: e.projectId,
      registeredModelId: e.registeredModelId,
      versionId: e.versionId ?? null,
      kind: e.kind,
      actorId: e.actorId,
      details: JSON.parse(JSON.stringify(e.details)) as JsonMap,
      createdAt: new Date(),
    });
    await repo.save(event);
    const channels = await em.getRepository(AlertChannel).findBy({ projectId: e.projectId, isEnabled: true });
    if (!channels.length) return event;
    const payload = await this.message(em, event);
    const outbox = em.getRepository(AlertNotification);
    const rows = await outbox.save(
      channels.map((c) => outbox.create({ alertId: null, registryEventId: event.id, channelId: c.id, projectId: e.projectId, reason: 'registry_event', payload: payload as unknown as JsonMap })),
    );
    owed.notificationIds.push(...rows.map((r) => r.id));
    owed.projectIds.add(e.projectId);
    return event;
  }

  /**
   * Starts the delivery of what a committed transaction owed, and of the projects' registry notifications still
   * pending from before (owed by a transaction whose process died before this step). Temporal being unreachable loses
   * nothing: the rows stay pending and the next event of the project (or its alert cycle) hands them over.
   */
  async dispatch(owed: Owed): Promise<void> {
    if (!owed.projectIds.size) return;
    try {
      const stale: { id: string }[] = await this.ds.query(
        `SELECT id FROM alert_notifications WHERE project_id = ANY($1) AND registry_event_id IS NOT NULL AND status = 'pending' AND created_at < $2 ORDER BY created_at LIMIT 500`,
        [[...owed.projectIds], new Date(Date.now() - STALE_MS)],
      );
      const client = await this.temporal.get();
      for (const id of new Set([...owed.notificationIds, ...stale.map((r) => r.id)])) {
        try {
          await client.workflow.start(DELIVERY_WORKFLOW, { workflowId: deliveryWorkflowId(id), taskQueue: this.config.taskQueues.io, args: [{ notificationId: id }] });
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'could not start registry notification deliveries; they stay pending');
    }
  }

  /** A registered model's events, newest first. */
  async list(registeredModelId: string, q: PageQuery & { kind?: string }): Promise<Page<RegistryEvent>> {
    const [items, total] = await this.ds.getRepository(RegistryEvent).findAndCount({
      where: { registeredModelId, ...(q.kind ? { kind: q.kind } : {}) },
      order: { id: 'DESC' },
      skip: q.offset,
      take: q.limit,
    });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** What every channel is sent for `event`: the webhook's `data`, the email's and Slack's text. */
  private async message(em: EntityManager, event: RegistryEvent): Promise<ChannelMessage> {
    const project = await em.getRepository(Project).findOneByOrFail({ id: event.projectId });
    const model = event.registeredModelId ? await em.getRepository(RegisteredModel).findOneBy({ id: event.registeredModelId }) : null;
    const version = event.versionId ? await em.getRepository(RegistryVersion).findOneBy({ id: event.versionId }) : null;
    const url = model ? `${this.config.appBaseUrl}/app/projects/${project.id}/registry/${model.id}` : `${this.config.appBaseUrl}/app/projects/${project.id}/registry`;
    const data = {
      event: { id: event.id, kind: event.kind, actor_id: event.actorId, details: event.details, created_at: event.createdAt.toISOString() },
      project: { id: project.id, name: project.name },
      registered_model: model ? { id: model.id, name: model.name } : null,
      version: version ? { id: version.id, version: version.version, model_id: version.modelId } : null,
      url,
    };
    const what = model ? `${model.name}${version ? ` v${version.version}` : ''}` : 'registry';
    const summary = `[REGISTRY] ${what}: ${event.kind.replace(/_/g, ' ')} (${project.name})`;
    const detailLines = Object.entries(event.details).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return {
      type: `registry.${event.kind}`,
      data,
      subject: summary,
      text: [summary, '', ...detailLines, '', `Open the registry: ${url}`].join('\n'),
      slack_text: `${summary}\n<${url}|Open the registry>`,
    };
  }
}
