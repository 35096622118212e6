import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One line of an experiment's log: `service` lines always show, `engine` lines on request. */
@Entity('experiment_logs')
@Index(['experimentId', 'id'])
export class ExperimentLog {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'experiment_id' })
  experimentId: string;

  @Column('text')
  source: 'service' | 'engine';

  @Column('text')
  level: 'debug' | 'info' | 'warn' | 'error';

  @Column('text')
  message: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
