import { z } from 'zod';
import { MAX_STEP_OPERATIONS, operationSchema, STEP_NAMES } from '../../engine/builder';
import { INT4_MAX, nonBlank, pageQuery, uuidParam } from '../validation';

/** The request schemas of the builder routes (api/routes/builder.ts). */

export const sessionParams = z.object({ session_id: uuidParam });
/** A step by name; a name outside the five is the step's 404 (the service says so), not a validation error. */
export const stepParams = z.object({
  session_id: uuidParam,
  step: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: `One of ${STEP_NAMES.join(', ')}` }),
});

export const sessionListQuery = pageQuery(100).extend({
  project_id: uuidParam,
  dataset_id: uuidParam.optional(),
  sort_field: z.enum(['created_at', 'updated_at', 'name']).default('created_at'),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
});

export const createSessionBody = z.object({
  project_id: uuidParam,
  dataset_id: uuidParam,
  /** The version number of the dataset; the latest when omitted. */
  version: z.number().int().min(0).max(INT4_MAX).optional(),
  target_column: z.string().min(1).max(256).nullable().optional(),
  name: nonBlank(200).optional(),
  allow_sample: z.boolean().default(false).meta({ description: 'Whether an LLM may see up to 20 sample rows of a step input (otherwise only the profile)' }),
});

export const proposeBody = z.object({
  instructions: z.string().max(4000).optional().meta({ description: 'What to ask the assistant for (with an LLM configured; the deterministic planner ignores it)' }),
});

/** An edited operation: bare, or as the step answered it (`{operation, reason}`). */
const editedOperation = z.union([z.object({ operation: operationSchema, reason: z.string().max(1000).optional() }), operationSchema]);

export const patchStepBody = z
  .object({
    operations: z.array(editedOperation).max(MAX_STEP_OPERATIONS).optional(),
    status: z.enum(['rejected', 'proposed']).optional(),
  })
  .refine((b) => b.operations !== undefined || b.status !== undefined, { message: 'Send operations, status or both' })
  .meta({ anyOf: [{ required: ['operations'] }, { required: ['status'] }] });

export const chatBody = z.object({ step: z.enum(STEP_NAMES), message: nonBlank(4000) });

export const finalizeBody = z.object({
  mode: z.enum(['new_version', 'new_dataset']).default('new_version'),
  /** The new dataset's name (mode `new_dataset`). */
  name: nonBlank(200).optional(),
  description: z.string().max(5000).optional(),
});

export const replayBody = z.object({ dataset_version_id: uuidParam });

export const uploadResultForm = z.object({ file: z.file() });
