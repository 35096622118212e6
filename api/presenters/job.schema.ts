import { z } from 'zod';
import { dateTimestamp as timestamp } from './common.schema';
import { JOB_STATUSES } from '../../entities';
import { REGISTERED_JOB_KINDS } from '../../services/job-kinds';

/**
 * The JSON shape of api/presenters/job.ts with the link the routes add, for the OpenAPI document (and through it the
 * web UI's generated types). Timestamps are ISO strings; the object stays open (a client ignores what it does not
 * know; `GET /api/jobs/:id` adds `live`).
 */

export const jobSchema = z
  .object({
    id: z.string(),
    project_id: z.string().nullable().meta({ description: 'The project the job acts on; null for an instance-wide job (`retention`), which only the admin routes show' }),
    kind: z.enum(REGISTERED_JOB_KINDS),
    entity_id: z.string().nullable(),
    status: z.enum(JOB_STATUSES),
    progress: z.number().int(),
    message: z.string().nullable(),
    error: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
    workflow_id: z.string(),
    run_id: z.string().nullable(),
    task_queue: z.string(),
    attempt: z.number().int(),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    updated_at: timestamp,
    temporal_ui_url: z.string(),
    builder_session_id: z.string().optional().meta({ description: 'A `builder_run` job: the builder session it works for, from its creation on (entity_id is its step, session or replayed version)' }),
  })
  .loose();
