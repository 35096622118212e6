import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';

/**
 * `created` until a job runs; `detecting` → `detected` (privacy_detect), `transforming` → `completed`
 * (privacy_transform); a job that fails or is canceled leaves `failed` or `canceled`.
 */
export const PRIVACY_SESSION_STATUSES = ['created', 'detecting', 'detected', 'transforming', 'completed', 'failed', 'canceled'] as const;
export type PrivacySessionStatus = (typeof PRIVACY_SESSION_STATUSES)[number];

/**
 * One run of a policy over a dataset version: detection results, then (on request) the version
 * transformed by the policy's rules into a new artifact. The source version is never changed.
 */
@Entity('privacy_sessions')
@Index(['projectId', 'createdAt'])
export class PrivacySession extends JobTrackedEntity<PrivacySessionStatus> {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Index()
  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Column('uuid', { name: 'dataset_version_id' })
  datasetVersionId: string;

  /** Rows read for detection; null means all. */
  @Column('integer', { name: 'sample_size', nullable: true })
  sampleSize: number | null;

  @Column('boolean', { name: 'deep_scan', default: false })
  deepScan: boolean;

  @Column('integer', { name: 'rows_scanned', default: 0 })
  rowsScanned: number;

  @Column('integer', { name: 'columns_analyzed', default: 0 })
  columnsAnalyzed: number;

  @Column('integer', { name: 'pii_columns', default: 0 })
  piiColumns: number;

  @Column('integer', { name: 'pii_instances', default: 0 })
  piiInstances: number;

  /** Whether a detection has completed (its results are the session's). */
  @Column('boolean', { default: false })
  detected: boolean;

  @Column('uuid', { name: 'output_artifact_id', nullable: true })
  outputArtifactId: string | null;

  /** The job now or last moving the session (its progress is the session's). */
  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'detect_job_id', nullable: true })
  detectJobId: string | null;

  @Column('uuid', { name: 'transform_job_id', nullable: true })
  transformJobId: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}
