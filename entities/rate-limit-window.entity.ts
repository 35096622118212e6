import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One fixed window of one limiter for one subject; shared by every API process. */
@Entity('rate_limit_windows')
export class RateLimitWindow {
  @PrimaryColumn('text', { name: 'bucket_key' })
  bucketKey: string;

  @PrimaryColumn('timestamptz', { name: 'window_start' })
  windowStart: Date;

  @Column('integer')
  count: number;
}
