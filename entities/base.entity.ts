import { randomUUID } from 'node:crypto';
import { CreateDateColumn, PrimaryColumn } from 'typeorm';

/**
 * Ids are generated in the application: the embedded engine has no uuid_generate_v4(),
 * and knowing the id before the insert lets a job row and its workflow id be written together.
 */
export abstract class BaseEntity {
  @PrimaryColumn('uuid')
  id: string = randomUUID();

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
