import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

export const REPORT_KINDS = ['experiment', 'model', 'project', 'deployment', 'synthgen'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * A document about one entity of a project (an experiment, a model, the project, a deployment,
 * a synthgen job), rendered by a `report_generate` job into one artifact (HTML, PDF or DOCX).
 */
@Entity('reports')
@Index(['projectId', 'createdAt'])
export class Report extends JobTrackedEntity<ReportStatus> {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  kind: ReportKind;

  @Column('uuid', { name: 'entity_id' })
  entityId: string;

  /** The options it was asked with (format, title, comments, include_* switches, llm_insights). */
  @Column('jsonb')
  options: JsonMap;

  /** What the document says in brief (its sections, headline figures), once rendered. */
  @Column('jsonb', { default: {} })
  summary: JsonMap;

  @Column('uuid', { name: 'artifact_id', nullable: true })
  artifactId: string | null;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}
