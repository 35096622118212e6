import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** One detection of a session: a column holding a PII type (or, with deep scan, a free-text column containing it). */
@Entity('privacy_results')
export class PrivacyResult extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('text')
  column: string;

  @Column('text', { name: 'pii_type' })
  piiType: string;

  /** `column`: the column is this type; `cells`: found inside free-text cells. */
  @Column('text')
  scope: 'column' | 'cells';

  @Column('double precision')
  confidence: number;

  @Column('integer')
  instances: number;

  /** Masked examples; never the values themselves. */
  @Column('jsonb', { default: [] })
  samples: string[];

  @Column('jsonb', { default: [] })
  evidence: string[];

  /** The action the policy applies to the type (null: none, the finding is pending). */
  @Column('text', { nullable: true })
  action: string | null;

  @Column('boolean', { default: false })
  transformed: boolean;

  /** Left out of this session by a user: never transformed, counted as excluded (services/privacy/finding-counts.ts). */
  @Column('boolean', { default: false })
  excluded: boolean;

  /** This session's action for the finding instead of the policy's (null: the policy decides). */
  @Column('text', { name: 'action_override', nullable: true })
  actionOverride: string | null;
}
