import { z } from 'zod';
import { PROJECT_ROLES, PROJECT_TEAM_ROLES, TEAM_ROLES } from '../../entities';
import { dateTimestamp } from './common.schema';

/** The JSON shapes of api/presenters/team.ts: teams, their members and their grants in projects (issue 34). */

export const teamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    member_count: z.number().int(),
    project_count: z.number().int().describe('Projects the team is granted a role in'),
    created_at: dateTimestamp,
    updated_at: dateTimestamp,
  })
  .loose();

/** A team the caller belongs to, with their role in it. */
export const myTeamSchema = teamSchema.extend({ role: z.enum(TEAM_ROLES) });

export const teamMemberSchema = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role: z.enum(TEAM_ROLES), created_at: dateTimestamp }).loose();

/** A project a team is granted, with the role. */
export const teamProjectSchema = z.object({ project_id: z.string(), project_name: z.string(), role: z.enum(PROJECT_TEAM_ROLES), created_at: dateTimestamp }).loose();

/** A team's grant as the project's members see it. */
export const projectTeamSchema = z
  .object({ team_id: z.string(), name: z.string(), description: z.string(), role: z.enum(PROJECT_TEAM_ROLES), member_count: z.number().int(), created_at: dateTimestamp })
  .loose();

/** One team through which a member reaches a project. */
export const memberTeamGrantSchema = z.object({ team_id: z.string(), name: z.string(), role: z.enum(PROJECT_TEAM_ROLES) }).loose();

/** The fields teams add to each item of `GET /api/projects/{id}/members` (additive to the spec's member). */
export const memberAccessFields = {
  via_team: z.boolean().describe("True when the person has no membership of their own and reaches the project only through `teams`; `role` is then the highest of those teams' roles"),
  effective_role: z.enum(PROJECT_ROLES).describe("The highest of the person's own role and their teams' roles: what access checks use"),
  teams: z.array(memberTeamGrantSchema).describe('The teams granted in the project that the person belongs to, highest role first'),
};
