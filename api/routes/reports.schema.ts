import { z } from 'zod';
import { REPORT_KINDS } from '../../entities';
import { INCLUDE_SWITCHES, REPORT_FORMATS } from '../../services/reports/options';
import { pageQuery, uuidParam } from '../validation';

/** The request schemas of the report routes (api/routes/reports.ts). */

const MAX_TITLE = 200;
const MAX_COMMENTS = 20_000;

/** The spec's report options; an unknown key is refused rather than silently ignored (a misspelt switch would otherwise do nothing). */
const reportOptions = z.strictObject({
  format: z.enum(REPORT_FORMATS).optional(),
  title: z.string().trim().min(1).max(MAX_TITLE).optional(),
  comments: z.string().max(MAX_COMMENTS).optional(),
  llm_insights: z.boolean().optional(),
  ...Object.fromEntries(INCLUDE_SWITCHES.map((k) => [k, z.boolean().optional()])),
}) as z.ZodType<Partial<Record<(typeof INCLUDE_SWITCHES)[number] | 'llm_insights', boolean>> & { format?: (typeof REPORT_FORMATS)[number]; title?: string; comments?: string }>;

export const reportParams = z.object({ report_id: uuidParam });

export const createReportBody = z.object({
  project_id: uuidParam,
  kind: z
    .string()
    .max(50)
    .meta({ enum: [...REPORT_KINDS] }),
  entity_id: uuidParam,
  options: reportOptions.optional(),
});
export const reportListQuery = pageQuery(500).extend({ project_id: uuidParam, kind: z.enum(REPORT_KINDS).optional(), entity_id: uuidParam.optional() });
