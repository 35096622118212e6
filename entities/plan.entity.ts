import { Column, Entity } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * A plan an admin defines (issue 34): a name and the limits its users get. `limits` holds only the keys the plan sets
 * (services/plan-limits.ts `PLAN_LIMIT_KEYS`): a key left out takes the instance's configured value (the built-in
 * `self_hosted` plan), a null one means no limit. Users (`users.plan_id`) and teams (`teams.plan_id`) point at it.
 */
@Entity('plans')
export class Plan extends BaseEntity {
  /** Unique; lower-case letters, digits, `_` and `-` (the key billing and settings' `default_plan` name it by). */
  @Column('text', { unique: true })
  name: string;

  @Column('text', { name: 'display_name' })
  displayName: string;

  @Column('jsonb', { default: {} })
  limits: Record<string, number | null>;
}
