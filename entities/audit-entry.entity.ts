import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** One changed field of an audited resource: its value before and after (`***` for a secret; absent when unknown). */
export interface AuditChange {
  before?: unknown;
  after?: unknown;
}

/**
 * One entry of the audit log (`audit_log`): who changed what through the API, when, from where, and what the
 * changed fields were before and after. Append-only: a trigger refuses UPDATE and DELETE except for the retention
 * job (`services/audit/retention.ts`). No foreign keys: an entry outlives its actor, project and resource.
 */
@Entity('audit_log')
@Index(['createdAt'])
export class AuditEntry extends BaseEntity {
  /** Null for requests without a user (registration, login, password reset by token). */
  @Column('uuid', { name: 'actor_user_id', nullable: true })
  actorUserId: string | null;

  /** The prefix of the API key the request used; null for a cookie session. */
  @Column('text', { name: 'actor_key_prefix', nullable: true })
  actorKeyPrefix: string | null;

  /** `project.update` for a changed entity, `POST /api/projects/:project_id/members` for a request-level entry. */
  @Column('text')
  action: string;

  @Column('text', { name: 'resource_type' })
  resourceType: string;

  @Column('text', { name: 'resource_id', nullable: true })
  resourceId: string | null;

  @Column('uuid', { name: 'project_id', nullable: true })
  projectId: string | null;

  /** `{field: {before, after}}` by column name, secrets masked; null for a request-level entry. */
  @Column('jsonb', { nullable: true })
  changes: Record<string, AuditChange> | null;

  @Column('text', { nullable: true })
  ip: string | null;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @Column('text', { name: 'request_id', nullable: true })
  requestId: string | null;

  /** Method and path template of the request (`PUT /api/projects/:project_id`). */
  @Column('text', { nullable: true })
  route: string | null;
}
