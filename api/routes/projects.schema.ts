import { z } from 'zod';
import { PROJECT_ROLES } from '../../entities';
import { PROJECT_SORT_FIELDS } from '../../services/projects';
import { emailAddress, listQuery, NOT_BLANK, uuidParam } from '../validation';

/** The request schemas of the project routes (api/routes/projects.ts). */

const description = z.string().max(5000).default('');
/** Blank names are refused with the spec's text `Project name must not be empty`. */
const projectName = z.string().max(200).meta({ pattern: NOT_BLANK });

export const projectParams = z.object({ project_id: uuidParam });
export const memberParams = z.object({ project_id: uuidParam, user_id: uuidParam });

export const projectListQuery = listQuery(PROJECT_SORT_FIELDS);
export const createProjectBody = z.object({ name: projectName, description });
export const updateProjectBody = z.object({ name: projectName, description: z.string().max(5000).optional() });
export const addMemberBody = z.object({
  email: emailAddress.describe('The registered user to add'),
  role: z.enum(PROJECT_ROLES).default('editor').describe("The role to give; at most the caller's own"),
});
