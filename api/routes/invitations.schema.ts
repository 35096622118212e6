import { z } from 'zod';
import { PROJECT_ROLES } from '../../entities';
import { emailAddress, uuidParam } from '../validation';

/** The request schemas of the invitation routes (api/routes/invitations.ts). */

export const inviteBody = z.object({
  project_id: uuidParam.describe('The project to invite into'),
  email: emailAddress.describe('The address to invite; it need not have an account'),
  role: z.enum(PROJECT_ROLES).default('editor').describe("The role the invitee gets on accepting; at most the caller's own"),
});
export const acceptByTokenBody = z.object({ token: z.string().min(10).max(200).describe('The `token` parameter of the mailed link') });

export const projectParams = z.object({ project_id: uuidParam });
export const projectInvitationParams = z.object({ project_id: uuidParam, invitation_id: uuidParam });
export const invitationParams = z.object({ invitation_id: uuidParam });
