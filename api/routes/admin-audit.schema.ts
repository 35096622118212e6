import { z } from 'zod';
import { intParam, timestampParam, uuidParam } from '../validation';

/** The request schemas of the audit log routes (api/routes/admin-audit.ts). */

/** Filters shared by both audit log lists; all optional, combined with AND. */
const filters = {
  actor_user_id: uuidParam.optional().describe('Entries of requests made by this user'),
  action: z.string().min(1).max(200).optional().describe('Exact action, e.g. `project.update` or `POST /api/projects/:project_id/members`'),
  resource_type: z.string().min(1).max(100).optional().describe('Exact resource type, e.g. `project`, `api_key`'),
  resource_id: z.string().min(1).max(200).optional().describe('Exact resource id'),
  from: timestampParam.optional().describe('Entries at or after this time (RFC 3339)'),
  to: timestampParam.optional().describe('Entries before this time (RFC 3339)'),
  limit: intParam(1, 200).default(50),
  offset: intParam(0).default(0),
};

export const adminAuditQuery = z.object({ ...filters, project_id: uuidParam.optional().describe("Entries of this project's resources") });
export const projectAuditQuery = z.object(filters);
export const projectParams = z.object({ project_id: uuidParam });
