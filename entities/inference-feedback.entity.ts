import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The actual outcome of one prediction (ground truth), keyed by the request id predict answered: sending it again
 * replaces it, so a client may retry a batch.
 */
@Entity('inference_feedback')
@Index(['deploymentId', 'receivedAt'])
export class InferenceFeedback {
  @PrimaryColumn('uuid', { name: 'deployment_id' })
  deploymentId: string;

  @PrimaryColumn('text', { name: 'request_id' })
  requestId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** The outcome as sent: a class label (string, number or boolean) or a number for regression. */
  @Column('jsonb')
  actual: unknown;

  @Column('timestamptz', { name: 'received_at', default: () => 'now()' })
  receivedAt: Date;
}
