import { z } from 'zod';
import { STEP_NAMES } from '../../engine/builder';
import { AssistantError } from '../../services/builder';
import { callerId, type AppContext, type RouteDeps } from '../context';
import { HttpError } from '../errors';
import { builderProposalSchema, builderSessionSchema, builderSessionSummarySchema, builderStepSchema } from '../presenters/builder.schema';
import { presentBuilderSession, presentBuilderSessionSummary, presentBuilderStep } from '../presenters/builder';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { receiveUpload } from '../uploads';
import { chatBody, createSessionBody, finalizeBody, patchStepBody, proposeBody, replayBody, sessionListQuery, sessionParams, stepParams, uploadResultForm } from './builder.schema';

const READ = 'read:datasets';
const WRITE = 'write:datasets';
const sessionNotFound = { description: 'Builder session not found (missing, or in a project the caller is not a member of)' };
const stepNotFound = { description: `Builder session not found, or Step not found (steps: ${STEP_NAMES.join(', ')})` };
const busy = { description: 'The session is finalized, being finalized, or one of its steps is executing' };
const invalidOperations = { description: 'A body field is invalid; an operation that does not fit the step input is named by its index in `loc` (`["body", "operations", 2]`) with why in `msg`' };
const queued = z.object({ job_id: z.string() });

/** The assistant's failure (an unreachable or misbehaving LLM endpoint) as the 502 it is: a gateway's answer. */
async function viaAssistant<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AssistantError) throw new HttpError(502, err.message);
    throw err;
  }
}

/**
 * The builder (prefix /api/builder/sessions): AI-assisted data preparation of a dataset version in five steps, each
 * proposed (an LLM when LLM_API_URL is set, else the deterministic planner), previewed, edited and executed as a
 * `builder_run` job; finalize commits the result as a new version with its recipe, which replays on other versions.
 */
export function builderRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { sessions, steps, runs } = services.builder;
  const tag = 'builder';

  return [
    route({
      method: 'get',
      path: '/api/builder/sessions',
      tag,
      auth: 'user',
      scope: READ,
      summary: "The project's builder sessions (optionally of one dataset), newest first by default",
      query: sessionListQuery,
      responses: { 200: { description: 'List envelope of sessions (without steps)', schema: pageOf(builderSessionSummarySchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await sessions.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentBuilderSessionSummary) };
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions',
      tag,
      auth: 'user',
      scope: WRITE,
      summary: 'Start a session on a version of a dataset (the latest by default), with its five steps empty and `proposed` (editor)',
      body: createSessionBody,
      responses: {
        201: { description: 'The session with its steps and (empty) chat', schema: z.object({ session: builderSessionSchema }) },
        404: { description: 'Project not found, Dataset not found or Dataset version not found' },
        422: { description: 'A body field is invalid, or target_column is not a column of the version' },
      },
      handler: async (ctx, { body }) => {
        const detail = await sessions.create(callerId(ctx), body);
        ctx.status = 201;
        return { session: presentBuilderSession(detail, config.llm !== null) };
      },
    }),
    route({
      method: 'get',
      path: '/api/builder/sessions/:session_id',
      tag,
      auth: 'user',
      scope: READ,
      params: sessionParams,
      summary: 'A session with its five steps (proposals, previews, summaries, outputs) and its chat',
      responses: { 200: { description: '{session}', schema: z.object({ session: builderSessionSchema }) }, 404: sessionNotFound },
      handler: async (ctx, { params }) => ({ session: presentBuilderSession(await sessions.get(callerId(ctx), params.session_id), config.llm !== null) }),
    }),
    route({
      method: 'delete',
      path: '/api/builder/sessions/:session_id',
      tag,
      auth: 'user',
      scope: WRITE,
      params: sessionParams,
      summary: 'Delete a session with its steps, chat and step outputs (editor); the versions it produced stay',
      responses: { 200: { description: '{ok}' }, 404: sessionNotFound, 409: { description: 'A job of the session is running: cancel it first' } },
      handler: async (ctx, { params }) => {
        await sessions.delete(callerId(ctx), params.session_id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/steps/:step/propose',
      tag,
      auth: 'user',
      scope: WRITE,
      rateLimit: 'ai',
      params: stepParams,
      body: proposeBody,
      summary:
        "Propose the step's operations from its input's profile and quality checks: the configured LLM (never given rows unless the session allows a sample; every answer validated) or, without one, the deterministic planner. The proposal is previewed on a sample of the input",
      responses: {
        200: { description: '{step, reply, discarded}: the step with its operations ({operation, reason}), preview and summary', schema: builderProposalSchema },
        404: stepNotFound,
        409: busy,
        422: invalidOperations,
        502: { description: 'The assistant failed (unreachable, or no usable answer); detail says why' },
      },
      handler: async (ctx, { params, body }) => {
        const p = await viaAssistant(() => steps.propose(callerId(ctx), params.session_id, params.step, body.instructions));
        return { step: presentBuilderStep(p.step), reply: p.reply, discarded: p.discarded };
      },
    }),
    route({
      method: 'patch',
      path: '/api/builder/sessions/:session_id/steps/:step',
      tag,
      auth: 'user',
      scope: WRITE,
      params: stepParams,
      body: patchStepBody,
      summary:
        'Edit a step: replace its operations (validated against the step input, preview recomputed) and/or set its status to `rejected` or back to `proposed`. An executed step that changes makes later executed steps `proposed` again',
      responses: { 200: { description: '{step}', schema: z.object({ step: builderStepSchema }) }, 404: stepNotFound, 409: busy, 422: invalidOperations },
      handler: async (ctx, { params, body }) => ({ step: presentBuilderStep(await steps.patch(callerId(ctx), params.session_id, params.step, body)) }),
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/steps/:step/execute',
      tag,
      auth: 'user',
      scope: WRITE,
      params: stepParams,
      summary:
        "Execute the step's operations on its whole input (a `builder_run` job): the step goes `executing`, then `executed` with its output, summary and preview, and later executed steps `proposed` again; a failure leaves it `failed` with the error and its previous output",
      responses: {
        202: { description: '{job_id}', schema: queued },
        404: stepNotFound,
        409: { description: 'The step is rejected, or the session is finalized or busy' },
        422: { description: 'An operation no longer fits the step input (`loc` names it)' },
      },
      handler: async (ctx, { params }) => {
        const job = await runs.execute(callerId(ctx), params.session_id, params.step);
        ctx.status = 202;
        return { job_id: job.id };
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/steps/:step/upload-result',
      tag,
      auth: 'user',
      scope: WRITE,
      params: stepParams,
      requestContentType: 'multipart/form-data',
      form: uploadResultForm,
      summary:
        "Replace the step's output with a file prepared elsewhere (CSV or Parquet, validated like a dataset upload): the step becomes `executed` with it. The session's recipe then cannot replay",
      responses: {
        200: { description: '{step}', schema: z.object({ step: builderStepSchema }) },
        404: stepNotFound,
        409: busy,
        413: { description: "File exceeds the caller's plan's max_upload_bytes" },
        422: { description: 'No file, unsupported file type, unreadable content, or a table past a size limit (named)' },
      },
      handler: async (ctx, { params }) => {
        const userId = callerId(ctx);
        const maxFileBytes = (await services.plans.of(userId)).limits.max_upload_bytes;
        // Checked before the file is read: a caller who may not change the step sends no bytes for nothing.
        await sessions.loadStep(userId, params.session_id, params.step, 'editor');
        const received = await receiveUpload(ctx as AppContext, {
          tmpRoot: services.datasets.tmpRoot,
          maxFileBytes,
          limitName: 'max_upload_bytes of the plan',
          idleTimeoutMs: config.limits.uploadIdleTimeoutMs,
        });
        try {
          if (!received.file) throw new HttpError(422, [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }]);
          return { step: presentBuilderStep(await steps.uploadResult(userId, params.session_id, params.step, received.file)) };
        } finally {
          received.cleanup();
        }
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/chat',
      tag,
      auth: 'user',
      scope: WRITE,
      rateLimit: 'ai',
      params: sessionParams,
      body: chatBody,
      summary: "Ask the assistant to change a step's proposal: it answers in words and with the revised operations (validated and previewed). Needs LLM_API_URL",
      responses: {
        200: { description: '{reply, step, discarded}', schema: builderProposalSchema },
        404: sessionNotFound,
        409: { description: 'No LLM is configured, or the session is finalized or busy' },
        422: invalidOperations,
        502: { description: 'The assistant failed (unreachable, or no usable answer); detail says why' },
      },
      handler: async (ctx, { params, body }) => {
        const p = await viaAssistant(() => steps.chat(callerId(ctx), params.session_id, body.step, body.message));
        return { reply: p.reply, step: presentBuilderStep(p.step), discarded: p.discarded };
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/finalize',
      tag,
      auth: 'user',
      scope: WRITE,
      params: sessionParams,
      body: finalizeBody,
      summary:
        "Commit the last executed step's output as a new version of the dataset (`new_version`, default) or a new dataset (`new_dataset`), validated like an upload, its `source` recording {builder_session_id, recipe}; the session becomes `finalized` with `result_version_id` and `recipe`. The original version is never changed",
      responses: { 202: { description: '{job_id}', schema: queued }, 404: sessionNotFound, 409: { description: 'Nothing executed yet, or the session is finalized or busy' } },
      handler: async (ctx, { params, body }) => {
        const job = await runs.finalize(callerId(ctx), params.session_id, body);
        ctx.status = 202;
        return { job_id: job.id };
      },
    }),
    route({
      method: 'post',
      path: '/api/builder/sessions/:session_id/replay',
      tag,
      auth: 'user',
      scope: WRITE,
      params: sessionParams,
      body: replayBody,
      summary:
        "Run a finalized session's recipe on another version of the project (one with the columns it needs): a new version of that version's dataset, with the same lineage. The job's result names it",
      responses: {
        202: { description: '{job_id}; the job result holds {dataset_id, dataset_version_id, version, row_count}', schema: queued },
        404: sessionNotFound,
        409: { description: 'The session is not finalized, or its recipe cannot replay (a step output was uploaded)' },
        422: { description: "dataset_version_id is no version of the session's project, or lacks what the recipe needs (said which operation)" },
      },
      handler: async (ctx, { params, body }) => {
        const job = await runs.replay(callerId(ctx), params.session_id, body.dataset_version_id);
        ctx.status = 202;
        return { job_id: job.id };
      },
    }),
  ];
}
