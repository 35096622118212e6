import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

/** A step's status (engine/builder/operations.ts `STEP_STATUSES`, spelled here since entities import nothing of ours). */
export type BuilderStepStatus = 'proposed' | 'executing' | 'executed' | 'failed' | 'rejected';

/** Where a step's operations came from. */
export type BuilderProposer = 'planner' | 'llm' | 'user';

/**
 * One of a session's five steps (understand → clean → transform → features → validate): its proposed operations with
 * their reasons, their preview on a sample, and once executed the output (an artifact of kind `builder_output` owned by
 * the session) with what changed. Its status follows its `builder_run` job (executing → executed, or failed with the
 * error and the previous output kept).
 */
@Entity('builder_steps')
@Index(['sessionId', 'position'], { unique: true })
export class BuilderStep extends JobTrackedEntity<BuilderStepStatus> {
  @Column('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  /** 0 to 4, the step's place in the session. */
  @Column('int')
  position: number;

  /** `{operation, reason}[]`, validated against the step's input when stored. */
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  operations: JsonMap[];

  @Column('text', { name: 'proposed_by', nullable: true })
  proposedBy: BuilderProposer | null;

  /** The operations run on a sample of the input: `{columns, rows}` (first rows). */
  @Column('jsonb', { nullable: true })
  preview: JsonMap | null;

  /** What changed (engine/builder/summary.ts `ExecutionSummary`): of the preview while proposed, of the whole table once executed. */
  @Column('jsonb', { nullable: true })
  summary: JsonMap | null;

  @Column('uuid', { name: 'output_artifact_id', nullable: true })
  outputArtifactId: string | null;

  /** The output's columns and rows, so a later step knows its input without reading the file. */
  @Column('jsonb', { name: 'output_columns', nullable: true })
  outputColumns: { name: string; dtype: string }[] | null;

  @Column('bigint', { name: 'output_rows', nullable: true, transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) } })
  outputRows: number | null;

  /** The output is a file the user uploaded (upload-result), not the operations' result: the recipe cannot replay it. */
  @Column('boolean', { default: false })
  uploaded: boolean;

  /** The operations that produced the output (what the recipe records), fixed when the execution was started. */
  @Column('jsonb', { name: 'executed_operations', nullable: true })
  executedOperations: JsonMap[] | null;
}
