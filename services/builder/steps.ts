import fs from 'node:fs';
import type { DataSource, EntityManager } from 'typeorm';
import { planStep, previewOperations, type Operation, type ProposedOperation, type StepName } from '../../engine/builder';
import { preview as previewRows, sample, type ColumnInfo } from '../../engine/data';
import { Artifact, BuilderMessage, BuilderSession, BuilderStep, type BuilderProposer } from '../../entities';
import type { Config } from '../../platform/config';
import type { DatasetVersions } from '../dataset-versions';
import { stageTable } from '../dataset-versions';
import { ConflictError, DomainError, NotFoundError } from '../errors';
import { assertStorageRoom } from '../quotas';
import { assertIdle, assertOpen, insertStepOutput, SESSION_NOT_FOUND, type BuilderSessions } from './sessions';
import { checkOperations, engineRefusal, joinTables, plannerFacts, stepInput, stepsOf, type InputDeps } from './inputs';
import { LlmPlannerError, proposeWithLlm } from './llm-planner';
import type { ArtifactStore } from '../../platform/artifact-store';

/** Rows of a step's input an LLM may see when the session allows a sample. */
export const LLM_SAMPLE_ROWS = 20;
/** Rows a step's preview shows. */
export const PREVIEW_ROWS = 20;
/** Chat messages of a step the assistant is given (the latest ones). */
const CHAT_HISTORY = 20;

/** The assistant (an OpenAI-compatible endpoint) failed or answered nothing usable: 502 over HTTP. */
export class AssistantError extends Error {
  readonly name = 'AssistantError';
}

/** What a proposal or chat answers besides the step: the assistant's reply and what it proposed that did not hold. */
export interface Proposal {
  step: BuilderStep;
  reply: string | null;
  discarded: { operation: unknown; why: string }[];
}

/** An edited operation as sent: the operation, with the reason kept when the client sends one back. */
export type EditedOperation = Operation | { operation: Operation; reason?: string };

/**
 * A session's steps between executions: proposals (the LLM when `LLM_API_URL` is set, else the deterministic planner),
 * the chat that revises them, edits, rejections and uploaded results. Every list that is stored is validated against
 * the step's input and previewed on a sample of it.
 */
export class BuilderSteps {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly datasetVersions: DatasetVersions,
    private readonly sessions: BuilderSessions,
    private readonly config: Pick<Config, 'llm' | 'limits'>,
    private readonly tmpRoot: string,
  ) {}

  private get inputDeps(): InputDeps {
    return { ds: this.ds, store: this.store, datasetVersions: this.datasetVersions };
  }

  /** Proposes the step's operations from its input's profile and quality checks, and previews them. */
  async propose(userId: string, sessionId: string, stepName: string, instructions?: string): Promise<Proposal> {
    const { session, step } = await this.editable(userId, sessionId, stepName);
    if (this.config.llm) {
      if (instructions) await this.addMessage(session, step.name, 'user', instructions);
      return this.askAssistant(session, step);
    }
    const input = await stepInput(this.inputDeps, session, await stepsOf(this.ds, session.id), step.position);
    const proposed = planStep(step.name as StepName, await plannerFacts(input, session.targetColumn));
    return { step: await this.store_(session, step, proposed, 'planner'), reply: null, discarded: [] };
  }

  /** A chat message about a step: the assistant answers and revises the step's proposal. Needs an LLM. */
  async chat(userId: string, sessionId: string, stepName: string, message: string): Promise<Proposal> {
    const { session, step } = await this.editable(userId, sessionId, stepName);
    if (!this.config.llm) throw new ConflictError('Chat needs an assistant: LLM_API_URL is not configured on this service');
    await this.addMessage(session, step.name, 'user', message);
    return this.askAssistant(session, step);
  }

  /** An edited operation list (validated, previewed) and/or a status change: `rejected`, or `proposed` again. */
  async patch(userId: string, sessionId: string, stepName: string, p: { operations?: EditedOperation[]; status?: 'rejected' | 'proposed' }): Promise<BuilderStep> {
    const { session, step } = await this.editable(userId, sessionId, stepName);
    let current = step;
    if (p.operations) {
      const proposed = p.operations.map((o): ProposedOperation =>
        'operation' in o ? { operation: o.operation, reason: o.reason ?? 'Edited by the user' } : { operation: o, reason: 'Edited by the user' },
      );
      current = await this.store_(session, step, proposed, 'user');
    }
    if (p.status && p.status !== current.status) {
      await this.ds.transaction(async (em) => {
        await lockIdle(em, session.id);
        if (current.status === 'executed') await invalidateLaterSteps(em, session.id, current.position);
        await em.getRepository(BuilderStep).update({ id: current.id }, { status: p.status, error: null });
      });
      current = await this.ds.getRepository(BuilderStep).findOneByOrFail({ id: step.id });
    }
    return current;
  }

  /**
   * Replaces the step's output with a file the user prepared (validated like a dataset upload: CSV or Parquet, within
   * the size limits): the step becomes `executed` with it, and later executed steps `proposed` again. The recipe of
   * such a session cannot replay (the file is not an operation).
   */
  async uploadResult(userId: string, sessionId: string, stepName: string, file: { path: string; filename: string }): Promise<BuilderStep> {
    const { session, step } = await this.editable(userId, sessionId, stepName);
    await assertStorageRoom(this.ds.manager, session.projectId, (await fs.promises.stat(file.path)).size);
    const input = await stepInput(this.inputDeps, session, await stepsOf(this.ds, session.id), step.position);
    const { limits } = this.config;
    const staged = await stageTable(file.path, this.tmpRoot, { maxColumns: limits.maxDatasetColumns, maxRows: limits.maxDatasetRows, maxCells: limits.maxDatasetCells });
    let storageKey: string | null = null;
    try {
      const columns = staged.ingest.columns.map((c) => ({ name: c.name, dtype: c.dtype })) as ColumnInfo[];
      storageKey = await this.store.moveIn(session.projectId, `${step.name}-uploaded.parquet`, staged.ingest.parquet_path);
      const stored = await this.store.describe(storageKey);
      const rows = await previewRows(await this.store.localPath(storageKey), PREVIEW_ROWS);
      const summary = uploadSummary(input.columns, input.rows, columns, staged.ingest.row_count);
      const key = storageKey;
      const old = await this.ds.transaction(async (em) => {
        await lockIdle(em, session.id);
        const artifact = await insertStepOutput(em, session, `${step.name}-uploaded.parquet`, stored, key);
        await em.getRepository(BuilderStep).update(
          { id: step.id },
          {
            status: 'executed',
            error: null,
            outputArtifactId: artifact.id,
            outputColumns: columns,
            outputRows: staged.ingest.row_count,
            uploaded: true,
            executedOperations: [],
            summary: summary as never,
            preview: { columns, rows } as never,
          },
        );
        await invalidateLaterSteps(em, session.id, step.position);
        return step.outputArtifactId ? em.getRepository(Artifact).findOneBy({ id: step.outputArtifactId }) : null;
      });
      storageKey = null;
      if (old) await removeArtifact(this.ds, this.store, old);
      return this.ds.getRepository(BuilderStep).findOneByOrFail({ id: step.id });
    } finally {
      if (storageKey) await this.store.remove(storageKey);
      fs.rmSync(staged.stagingDir, { recursive: true, force: true });
    }
  }

  /** The session and step for a change: editor, session not finalized, no job of the session running. */
  private async editable(userId: string, sessionId: string, stepName: string): Promise<{ session: BuilderSession; step: BuilderStep }> {
    const { session, step } = await this.sessions.loadStep(userId, sessionId, stepName, 'editor');
    assertOpen(session);
    await assertIdle(this.ds.manager, session);
    return { session, step };
  }

  /**
   * The assistant's proposal for a step: it is given the input's profile and quality checks, the step's current
   * operations and the step's chat (never rows, unless the session allows a sample), and answers operations that are
   * validated before anything is stored. Its reply joins the chat.
   */
  private async askAssistant(session: BuilderSession, step: BuilderStep): Promise<Proposal> {
    const input = await stepInput(this.inputDeps, session, await stepsOf(this.ds, session.id), step.position);
    const facts = await plannerFacts(input, session.targetColumn);
    const history = await this.ds.getRepository(BuilderMessage).find({ where: { sessionId: session.id, step: step.name }, order: { createdAt: 'DESC', id: 'DESC' }, take: CHAT_HISTORY });
    const current = (step.operations as unknown as ProposedOperation[]).map((p) => p.operation);
    let answer;
    try {
      answer = await proposeWithLlm(this.config.llm!, {
        step: step.name as StepName,
        facts,
        current,
        messages: history.reverse().map((m) => ({ role: m.role, content: m.content })),
        sample: session.allowSample ? await sample(input.path, LLM_SAMPLE_ROWS) : undefined,
        // The versions the step already joins, so a revision may keep its joins.
        joins: (await joinTables(this.inputDeps, session.projectId, current)).columns,
      });
    } catch (err) {
      // The provider's failure is a gateway's (502); our own refusals (a missing input, bad data) keep their codes.
      if (err instanceof DomainError && !(err instanceof LlmPlannerError)) throw err;
      throw new AssistantError(`The assistant failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    await this.addMessage(session, step.name, 'assistant', answer.reply || '(no reply)');
    return { step: await this.store_(session, step, answer.operations, 'llm'), reply: answer.reply, discarded: answer.discarded };
  }

  /** Validates `proposed` against the step's input, previews it on a sample and stores it as the step's proposal. */
  private async store_(session: BuilderSession, step: BuilderStep, proposed: ProposedOperation[], by: BuilderProposer): Promise<BuilderStep> {
    const input = await stepInput(this.inputDeps, session, await stepsOf(this.ds, session.id), step.position);
    const operations = proposed.map((p) => p.operation);
    const joins = await joinTables(this.inputDeps, session.projectId, operations);
    checkOperations(operations, input.columns, joins);
    let shown;
    try {
      shown = await previewOperations({ input: input.path, operations, joins: joins.paths, previewRows: PREVIEW_ROWS });
    } catch (err) {
      throw engineRefusal(err);
    }
    await this.ds.transaction(async (em) => {
      await lockIdle(em, session.id);
      if (step.status === 'executed') await invalidateLaterSteps(em, session.id, step.position);
      await em
        .getRepository(BuilderStep)
        .update(
          { id: step.id },
          { operations: proposed as never, proposedBy: by, status: 'proposed', error: null, preview: { columns: shown.columns, rows: shown.rows } as never, summary: shown.summary as never },
        );
    });
    return this.ds.getRepository(BuilderStep).findOneByOrFail({ id: step.id });
  }

  private async addMessage(session: BuilderSession, step: string, role: 'user' | 'assistant', content: string): Promise<void> {
    await this.ds.getRepository(BuilderMessage).insert(this.ds.getRepository(BuilderMessage).create({ sessionId: session.id, projectId: session.projectId, step, role, content }));
  }
}

/**
 * Locks the session row to the end of `em`'s transaction and checks again that no job of it runs: a proposal computed
 * while an execution or finalize started must not overwrite the step that job now owns (execute and finalize take the
 * same lock).
 */
async function lockIdle(em: EntityManager, sessionId: string): Promise<void> {
  const locked = await em.getRepository(BuilderSession).findOne({ where: { id: sessionId }, lock: { mode: 'pessimistic_write' } });
  if (!locked) throw new NotFoundError(SESSION_NOT_FOUND);
  assertOpen(locked);
  await assertIdle(em, locked);
}

/**
 * The input of every step after `position` changed: executed ones go back to `proposed` (their last output is kept
 * until replaced), and every later step's preview and summary are cleared, since they were computed on the old input
 * and a preview must never describe another input than the step's current one. Their operations stay; the next
 * propose, chat or edit of the step previews them again on the new input (and validates them against it).
 */
export async function invalidateLaterSteps(em: EntityManager, sessionId: string, position: number): Promise<void> {
  await em
    .createQueryBuilder()
    .update(BuilderStep)
    .set({ status: () => `CASE WHEN status = 'executed' THEN 'proposed' ELSE status END`, preview: null, summary: null })
    .where('session_id = :sessionId AND position > :position', { sessionId, position })
    .execute();
}

/** Removes an artifact's row, then its file. */
export async function removeArtifact(ds: DataSource, store: ArtifactStore, artifact: Artifact): Promise<void> {
  await ds.getRepository(Artifact).delete({ id: artifact.id });
  await store.remove(artifact.storageKey);
}

/** What an uploaded result changed against the step's input, in the engine's summary shape (no operations ran). */
function uploadSummary(before: ColumnInfo[], rowsBefore: number, after: ColumnInfo[], rowsAfter: number) {
  const was = new Map(before.map((c) => [c.name, c.dtype]));
  const now = new Set(after.map((c) => c.name));
  return {
    rows_before: rowsBefore,
    rows_after: rowsAfter,
    columns_before: before,
    columns_after: after,
    added: after.filter((c) => !was.has(c.name)).map((c) => c.name),
    removed: before.filter((c) => !now.has(c.name)).map((c) => c.name),
    type_changes: after.filter((c) => was.has(c.name) && was.get(c.name) !== c.dtype).map((c) => ({ column: c.name, from: was.get(c.name)!, to: c.dtype })),
    null_changes: [],
    operations: [],
  };
}
