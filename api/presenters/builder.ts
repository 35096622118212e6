import type { BuilderMessage, BuilderSession, BuilderStep } from '../../entities';
import type { SessionDetail } from '../../services/builder/sessions';
import type { Presented } from './common.schema';
import type { builderMessageSchema, builderSessionSchema, builderSessionSummarySchema, builderStepSchema } from './builder.schema';

/** The one place a builder session, step or message becomes JSON (shapes: builder.schema.ts). */

export function presentBuilderSessionSummary(s: BuilderSession): Presented<typeof builderSessionSummarySchema> {
  return {
    id: s.id,
    project_id: s.projectId,
    dataset_id: s.datasetId,
    source_version_id: s.sourceVersionId,
    name: s.name,
    target_column: s.targetColumn,
    allow_sample: s.allowSample,
    status: s.status,
    error: s.error,
    result_version_id: s.resultVersionId,
    recipe: s.recipe as never,
    replayable: s.replayable,
    created_by: s.createdBy,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export function presentBuilderStep(s: BuilderStep): Presented<typeof builderStepSchema> {
  return {
    id: s.id,
    name: s.name as never,
    position: s.position,
    status: s.status,
    error: s.error,
    operations: s.operations as never,
    proposed_by: s.proposedBy,
    preview: s.preview as never,
    summary: s.summary as never,
    output_artifact_id: s.outputArtifactId,
    output_columns: s.outputColumns,
    output_rows: s.outputRows,
    uploaded: s.uploaded,
    updated_at: s.updatedAt,
  };
}

export function presentBuilderMessage(m: BuilderMessage): Presented<typeof builderMessageSchema> {
  return { id: m.id, step: m.step, role: m.role, content: m.content, created_at: m.createdAt };
}

/** A session with its steps and chat; `assistant` says whether the service has an LLM to propose and chat with. */
export function presentBuilderSession(d: SessionDetail, assistant: boolean): Presented<typeof builderSessionSchema> {
  return { ...presentBuilderSessionSummary(d.session), steps: d.steps.map(presentBuilderStep), messages: d.messages.map(presentBuilderMessage), assistant };
}
