import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const PRIVACY_ACTIONS = ['mask', 'hash', 'redact', 'encrypt', 'generalize', 'suppress', 'pseudonymize'] as const;
export type PrivacyAction = (typeof PRIVACY_ACTIONS)[number];

/** One rule of a policy: what to do with one PII type; the highest priority enabled rule of a type wins. */
@Entity('privacy_rules')
export class PrivacyRule extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  /** Denormalised from the policy, so the access loader reaches the rule's project in one read. */
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** An engine PII type id (`GET /api/privacy/pii-types`). */
  @Column('text', { name: 'pii_type' })
  piiType: string;

  @Column('text')
  action: PrivacyAction;

  @Column('boolean', { name: 'is_enabled', default: true })
  isEnabled: boolean;

  @Column('integer', { default: 0 })
  priority: number;

  /** The action's settings, as validated for it (services/privacy/rule-config.ts). */
  @Column('jsonb', { default: {} })
  config: JsonMap;
}
