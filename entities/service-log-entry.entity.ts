import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A warn, error or fatal entry of a process's structured log, copied by platform/log-capture.ts so admins can read
 * recent faults (`GET /api/admin/logs`) without shell access. Capped: the oldest go past SERVICE_LOG_MAX_ENTRIES.
 * Written as the logger wrote it (its serializers and redaction already applied).
 */
@Entity('service_log_entries')
@Index(['time'])
export class ServiceLogEntry {
  /** Sequential: pruning keeps the newest ids. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('timestamptz')
  time: Date;

  /** `warn`, `error` or `fatal`. */
  @Column('text')
  level: string;

  /** The logger's name and the process role (`api`, `worker`...). */
  @Column('text')
  process: string;

  @Column('integer', { nullable: true })
  pid: number | null;

  @Column('text')
  msg: string;

  /** Every other field of the entry (request id, job id, err...). */
  @Column('jsonb', { default: {} })
  fields: Record<string, unknown>;
}
