import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One predict request served by an A/B test: the variant it was assigned and the deployment that answered (whose
 * inference log holds it too, so that deployment's feedback labels it). For accuracy and log_loss tests the answer is
 * kept (labels and class probabilities per row): inference logs keep labels only.
 */
@Entity('ab_assignments')
@Index(['testId', 'variant'])
export class AbAssignment {
  @PrimaryColumn('uuid', { name: 'test_id' })
  testId: string;

  @PrimaryColumn('text', { name: 'request_id' })
  requestId: string;

  @Column('text')
  variant: string;

  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  /** Predicted labels, one per row (accuracy and log_loss tests only). */
  @Column('jsonb', { nullable: true })
  predictions: unknown[] | null;

  /** Class probabilities, one map per row (log_loss tests of classifiers only). */
  @Column('jsonb', { nullable: true })
  probabilities: (Record<string, number> | null)[] | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
