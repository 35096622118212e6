import { z } from 'zod';
import { REPORT_KINDS, REPORT_STATUSES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shape of api/presenters/report.ts, for the OpenAPI document and through it the web UI's generated types.
 * Objects stay open (`loose`): a client ignores fields it does not know.
 */
export const reportSchema = z
  .object({
    id: z.string(),
    project_id: z.string(),
    kind: z.enum(REPORT_KINDS),
    entity_id: z.string(),
    status: z.enum(REPORT_STATUSES),
    summary: jsonObject,
    /** The document, once the report succeeded. */
    artifact_id: z.string().nullable(),
    job_id: z.string().nullable(),
    /** The options as asked (services/reports/options.ts): format, title, comments, section switches. */
    options: z.object({ format: z.string(), title: z.string().optional() }).loose(),
    error: z.string().nullable(),
    created_at: dateTimestamp,
    finished_at: dateTimestamp.nullable(),
  })
  .loose();
