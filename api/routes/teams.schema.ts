import { z } from 'zod';
import { PROJECT_TEAM_ROLES, TEAM_ROLES } from '../../entities';
import { emailAddress, nonBlank, pageQuery, uuidParam } from '../validation';

/** The request schemas of the team routes (api/routes/admin-teams.ts, api/routes/teams.ts). */

export const teamParams = z.object({ team_id: uuidParam });
export const teamMemberParams = z.object({ team_id: uuidParam, user_id: uuidParam });
export const projectTeamParams = z.object({ project_id: uuidParam, team_id: uuidParam });

export const teamListQuery = pageQuery(500).extend({ search: z.string().max(200).optional().describe('Case-insensitive substring of the name or description') });

const teamName = nonBlank(100).describe('Unique, case-insensitively');
const description = z.string().max(2000);

export const createTeamBody = z.object({ name: teamName, description: description.default('') });
export const updateTeamBody = z.object({ name: teamName, description: description.optional() });

const teamRole = z.enum(TEAM_ROLES).default('member').describe('`maintainer`s manage the team’s members; `member`s only belong');

/** A registered user by email or by id (exactly one of them), with the team role to give. */
export const addTeamMemberBody = z.union([
  z.strictObject({ email: emailAddress.describe('The registered user to add'), role: teamRole }),
  z.strictObject({ user_id: uuidParam.describe('The user to add'), role: teamRole }),
]);

export const grantProjectTeamBody = z.object({
  team_id: uuidParam.describe('A team the caller belongs to (superusers: any team)'),
  role: z.enum(PROJECT_TEAM_ROLES).default('editor').describe("The role the team's members get; at most the caller's own, never `owner`"),
});
