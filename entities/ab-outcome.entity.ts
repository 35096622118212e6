import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The business outcome of one assigned request (conversion 0/1 or revenue); posting it again replaces it. */
@Entity('ab_outcomes')
export class AbOutcome {
  @PrimaryColumn('uuid', { name: 'test_id' })
  testId: string;

  @PrimaryColumn('text', { name: 'request_id' })
  requestId: string;

  @Column('double precision')
  value: number;

  @Column('timestamptz', { name: 'received_at', default: () => 'now()' })
  receivedAt: Date;
}
