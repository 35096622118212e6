import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

/** One feature's share of a prediction (the last entry is `BiasTerm`). */
export interface Contribution {
  feature: string;
  value: number;
}

/**
 * A what-if session: a baseline row scored by a deployment, kept with the feature schema it was
 * scored against, so its scenarios and their comparison read the session as it was made.
 */
@Entity('studio_sessions')
@Index(['projectId', 'createdAt'])
export class StudioSession extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  /** Feature name → dtype, in the model's input order (target excluded). */
  @Column('jsonb', { name: 'feature_schema' })
  featureSchema: Record<string, string>;

  /** Every schema feature: the value sent, or null (missing) where none was. */
  @Column('jsonb', { name: 'baseline_input' })
  baselineInput: JsonMap;

  /** What the deployment's predict answers for the row: prediction, probabilities, decision. */
  @Column('jsonb', { name: 'baseline_output' })
  baselineOutput: JsonMap;

  /** Empty when the model cannot explain its predictions (StackedEnsemble). */
  @Column('jsonb', { name: 'baseline_contributions' })
  baselineContributions: Contribution[];

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}
