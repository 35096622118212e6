import { ApiKey } from './api-key.entity';
import { Artifact } from './artifact.entity';
import { AuthSession } from './auth-session.entity';
import { EmailToken } from './email-token.entity';
import { Job } from './job.entity';
import { InitialSchema1732300000000 } from './migrations/1732300000000-initial-schema';
import { Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import { RateLimitWindow } from './rate-limit-window.entity';
import { User } from './user.entity';

export * from './api-key.entity';
export * from './artifact.entity';
export * from './auth-session.entity';
export * from './email-token.entity';
export * from './job.entity';
export * from './project.entity';
export * from './project-member.entity';
export * from './rate-limit-window.entity';
export * from './user.entity';

export const ENTITIES = [User, AuthSession, ApiKey, EmailToken, Project, ProjectMember, Job, Artifact, RateLimitWindow];
export const MIGRATIONS = [InitialSchema1732300000000];
