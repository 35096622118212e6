import { z } from 'zod';
import { JOB_STATUSES } from '../../entities';
import { REGISTERED_JOB_KINDS } from '../../services/job-kinds';
import { JOB_SORT_FIELDS } from '../../services/jobs';
import { listQuery, uuidParam } from '../validation';

/** The request schemas of the job routes (api/routes/jobs.ts). */

export const jobParams = z.object({ job_id: uuidParam });

/** The kinds are the registry's, so a new kind is listed (and its filter accepted) without touching this file. */
export const jobListQuery = listQuery(JOB_SORT_FIELDS).extend({
  project_id: uuidParam.optional(),
  kind: z.enum(REGISTERED_JOB_KINDS).optional(),
  status: z.enum(JOB_STATUSES).optional(),
  entity_id: uuidParam.optional(),
});
