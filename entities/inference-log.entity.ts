import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { JsonMap } from './job.entity';

/**
 * One predict request of a deployment, written in batches off the request path
 * (services/inference-logs.ts). `deploymentId` served it; `requestedDeploymentId` was addressed
 * (they differ when a staging deployment took a share of production's traffic).
 */
@Entity('inference_logs')
@Index(['deploymentId', 'createdAt'])
export class InferenceLog {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  @Column('uuid', { name: 'requested_deployment_id' })
  requestedDeploymentId: string;

  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text', { name: 'request_id' })
  requestId: string;

  @Column('double precision', { name: 'latency_ms' })
  latencyMs: number;

  @Column('integer', { name: 'status_code' })
  statusCode: number;

  @Column('jsonb', { nullable: true })
  prediction: JsonMap | unknown[] | null;

  /** The request's rows, only when the payload is stored: the model's input columns, privacy-mapped ones masked. */
  @Column('jsonb', { nullable: true })
  inputs: JsonMap | unknown[] | null;

  /** What the rows lacked or carried beyond the training schema (`[{type, columns, rows, message}]`); null when nothing. */
  @Column('jsonb', { nullable: true })
  warnings: unknown[] | null;

  /** What a refused request was answered with (the error's `detail`: a text or `[{loc, msg, type}]`); null when it was answered 200. */
  @Column('jsonb', { nullable: true })
  error: string | { loc: (string | number)[]; msg: string; type: string }[] | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
