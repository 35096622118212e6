import { z } from 'zod';
import { ACCOUNT_EVENT_TYPES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/** The JSON shapes of the admin area's users, keys, settings, security events and service logs (api/presenters/admin.ts). */

/** A user as admins see them. */
export const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    is_superuser: z.boolean(),
    email_verified_at: dateTimestamp.nullable(),
    /** Set while the user is suspended: their sessions and keys answer 401. */
    suspended_at: dateTimestamp.nullable(),
    created_at: dateTimestamp,
    /** The start of their latest session. */
    last_login_at: dateTimestamp.nullable(),
  })
  .loose();

/** One user with what they own and hold. */
export const adminUserDetailSchema = adminUserSchema
  .extend({
    projects_owned: z.array(z.object({ id: z.string(), name: z.string(), created_at: dateTimestamp }).loose()),
    memberships: z.number().int(),
    api_keys: z.object({ live: z.number().int(), total: z.number().int() }).loose(),
    live_sessions: z.number().int(),
    /** The plan they work under; `source`: user, team, default or built_in. */
    plan: z.object({ name: z.string(), display_name: z.string(), source: z.string() }).loose(),
  })
  .loose();

export const ownerSchema = z.object({ id: z.string(), email: z.string(), name: z.string() }).loose();

/** Any user's API key, without its secret. */
export const adminApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    created_at: dateTimestamp,
    last_used_at: dateTimestamp.nullable(),
    revoked_at: dateTimestamp.nullable(),
    owner: ownerSchema,
  })
  .loose();

/** The instance settings: what applies now (set by an admin, else configured). */
export const settingsSchema = z
  .object({
    registration: z.enum(['open', 'invite_only', 'closed']),
    default_plan: z.string().nullable(),
    allowed_email_domains: z.array(z.string()),
    session_lifetime_hours: z.number().int(),
  })
  .loose();

/** One account event with its user. */
export const securityEventSchema = z
  .object({
    id: z.string(),
    type: z.enum(ACCOUNT_EVENT_TYPES),
    created_at: dateTimestamp,
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    details: jsonObject,
    user: ownerSchema,
  })
  .loose();

/** One captured warn or error entry of a process's log. */
export const serviceLogEntrySchema = z
  .object({
    id: z.string(),
    time: dateTimestamp,
    level: z.string(),
    process: z.string(),
    pid: z.number().int().nullable(),
    msg: z.string(),
    fields: jsonObject,
  })
  .loose();
