import { z } from 'zod';
import { PROJECT_ROLES } from '../../entities';
import { dateTimestamp, isoTimestamp } from './common.schema';
import { memberAccessFields } from './team.schema';

/**
 * The JSON shapes of api/presenters/project.ts and the project routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

const role = z.enum(PROJECT_ROLES);

/** A project in lists and `GET /api/projects/{id}`: with the caller's role and its counts. */
export const projectSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.string(),
    dataset_count: z.number().int(),
    experiment_count: z.number().int(),
    model_count: z.number().int(),
    role,
    created_at: isoTimestamp,
  })
  .loose();

/** A project as creation and updates answer it (an update leaves `created_at` out). */
export const projectSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), created_at: dateTimestamp.optional() }).loose();

export const memberSchema = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role, created_at: dateTimestamp }).loose();

/** A person in `GET /api/projects/{id}/members`: the member fields and the access teams give (issue 34). */
export const projectMemberSchema = memberSchema.extend(memberAccessFields);

/** An invitation as the project's owner sees it. */
export const invitationSchema = z.object({ id: z.string(), email: z.string(), role, created_at: dateTimestamp, expires_at: dateTimestamp }).loose();

/** An invitation as creating it answers it: with its project. */
export const createdInvitationSchema = invitationSchema.extend({ project_id: z.string(), created_at: isoTimestamp, expires_at: isoTimestamp });

/** An invitation addressed to the caller (`GET /api/invitations`). */
export const receivedInvitationSchema = z
  .object({ id: z.string(), project_id: z.string(), project_name: z.string(), role, invited_by_name: z.string().nullable(), created_at: dateTimestamp, expires_at: dateTimestamp })
  .loose();

/** One event of a project's timeline: a dataset version or an experiment. */
export const timelineEventSchema = z.discriminatedUnion('type', [
  z.object({ id: z.string(), type: z.literal('dataset'), name: z.string(), version: z.number().int(), rows: z.number(), columns: z.number().int(), timestamp: isoTimestamp }).loose(),
  z
    .object({
      id: z.string(),
      type: z.literal('experiment'),
      name: z.string(),
      status: z.string(),
      target_column: z.string(),
      problem_type: z.string(),
      best_model_type: z.string().nullable(),
      /** Seconds from start to finish; null until it finished. */
      duration: z.number().nullable(),
      timestamp: isoTimestamp,
    })
    .loose(),
]);
