import { z } from 'zod';
import { operationSchema, STEP_NAMES, STEP_STATUSES } from '../../engine/builder';
import { BUILDER_SESSION_STATUSES } from '../../entities';
import { columnSchema, dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/builder.ts and the builder routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/** An operation with the one line that says why it is proposed. */
export const proposedOperationSchema = z.object({ operation: operationSchema, reason: z.string() }).loose();

/** The first rows after the operations (on a sample while proposed, of the whole output once executed). */
export const stepPreviewSchema = z.object({ columns: z.array(columnSchema), rows: z.array(jsonObject) }).loose();

/** What the operations changed (engine/builder/summary.ts): rows, columns, types and nulls, and rows after each operation. */
export const executionSummarySchema = z
  .object({
    rows_before: z.number(),
    rows_after: z.number(),
    columns_before: z.array(columnSchema),
    columns_after: z.array(columnSchema),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    type_changes: z.array(z.object({ column: z.string(), from: z.string(), to: z.string() }).loose()),
    null_changes: z.array(z.object({ column: z.string(), before: z.number(), after: z.number() }).loose()),
    operations: z.array(z.object({ op: z.string(), rows_after: z.number() }).loose()),
    /** The validate step's quality checks of the result (engine/data quality report), once executed. */
    quality: jsonObject.optional(),
  })
  .loose();

export const builderStepSchema = z
  .object({
    id: z.string(),
    name: z.enum(STEP_NAMES),
    position: z.number().int(),
    status: z.enum(STEP_STATUSES),
    error: z.string().nullable(),
    operations: z.array(proposedOperationSchema),
    proposed_by: z.enum(['planner', 'llm', 'user']).nullable(),
    preview: stepPreviewSchema.nullable(),
    summary: executionSummarySchema.nullable(),
    output_artifact_id: z.string().nullable(),
    output_columns: z.array(columnSchema).nullable(),
    output_rows: z.number().int().nullable(),
    uploaded: z.boolean(),
    updated_at: dateTimestamp,
  })
  .loose();

export const builderMessageSchema = z.object({ id: z.string(), step: z.string(), role: z.enum(['user', 'assistant']), content: z.string(), created_at: dateTimestamp }).loose();

export const builderSessionSummarySchema = z
  .object({
    id: z.string(),
    project_id: z.string(),
    dataset_id: z.string(),
    source_version_id: z.string(),
    name: z.string(),
    target_column: z.string().nullable(),
    allow_sample: z.boolean(),
    status: z.enum(BUILDER_SESSION_STATUSES),
    error: z.string().nullable(),
    result_version_id: z.string().nullable(),
    /** The executed steps' operations in order, once finalized. */
    recipe: z.array(operationSchema).nullable(),
    /** False when a step's output was uploaded: the recipe cannot replay. Null until finalized. */
    replayable: z.boolean().nullable(),
    created_by: z.string().nullable(),
    created_at: dateTimestamp,
    updated_at: dateTimestamp,
  })
  .loose();

export const builderSessionSchema = builderSessionSummarySchema.extend({
  steps: z.array(builderStepSchema),
  messages: z.array(builderMessageSchema),
  assistant: z.boolean().describe('Whether this service has an assistant (an LLM, LLM_API_URL): it proposes and chats; without one the deterministic planner proposes and chat answers 409'),
});

/** A proposal's or a chat's answer: the step as stored, the assistant's reply (null from the planner) and what it proposed that did not hold. */
export const builderProposalSchema = z
  .object({
    step: builderStepSchema,
    reply: z.string().nullable(),
    discarded: z.array(z.object({ operation: z.unknown(), why: z.string() }).loose()),
  })
  .loose();
