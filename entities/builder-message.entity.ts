import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** One chat message of a builder session, about one step: the user's request or the assistant's reply. */
@Entity('builder_messages')
@Index(['sessionId', 'createdAt'])
export class BuilderMessage extends BaseEntity {
  @Column('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  step: string;

  @Column('text')
  role: 'user' | 'assistant';

  @Column('text')
  content: string;
}
