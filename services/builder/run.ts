import type { DataSource } from 'typeorm';
import type { Operation, ProposedOperation } from '../../engine/builder';
import { BuilderSession, BuilderStep, type Job } from '../../entities';
import type { Access } from '../access';
import type { DatasetVersions } from '../dataset-versions';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import type { ArtifactStore } from '../../platform/artifact-store';
import { assertIdle, assertOpen, SESSION_NOT_FOUND, type BuilderSessions } from './sessions';
import { checkOperations, joinTables, stepInput, stepsOf, type InputDeps } from './inputs';

/** What a `builder_run` job does: execute one step, finalize the session, or replay its recipe on a version. */
export type BuilderRunAction =
  | { action: 'execute'; sessionId: string; stepId: string }
  | { action: 'finalize'; sessionId: string; mode: FinalizeMode; name: string | null; description: string | null }
  | { action: 'replay'; sessionId: string; versionId: string };

export type FinalizeMode = 'new_version' | 'new_dataset';

/** The recipe of a session's executed steps, in order: their operations, and whether it can replay (no uploaded output). */
export function recipeOf(steps: BuilderStep[]): { recipe: Operation[]; replayable: boolean; uploadedSteps: string[] } {
  const executed = steps.filter((s) => s.status === 'executed').sort((a, b) => a.position - b.position);
  return {
    recipe: executed.flatMap((s) => (s.executedOperations ?? []) as Operation[]),
    replayable: !executed.some((s) => s.uploaded),
    uploadedSteps: executed.filter((s) => s.uploaded).map((s) => s.name),
  };
}

/**
 * The long work of a session as `builder_run` jobs: a step's execution on the whole table, finalize (a new version
 * of the dataset, or a new dataset, from the last executed step's output) and a replay of the finalized recipe on
 * another version. Each is checked here, marked on its rows and written with its job in one transaction, then started.
 */
export class BuilderRuns {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly sessions: BuilderSessions,
    private readonly inputDeps: { store: ArtifactStore; datasetVersions: DatasetVersions },
  ) {}

  private get deps(): InputDeps {
    return { ds: this.ds, ...this.inputDeps };
  }

  /** Executes the step's proposed operations on its whole input (202 with the job); the step goes `executing`. */
  async execute(userId: string, sessionId: string, stepName: string): Promise<Job> {
    const { session, step } = await this.sessions.loadStep(userId, sessionId, stepName, 'editor');
    assertOpen(session);
    if (step.status === 'rejected') throw new ConflictError('The step is rejected: set it back to proposed to execute it');
    const operations = (step.operations as unknown as ProposedOperation[]).map((p) => p.operation);
    const steps = await stepsOf(this.ds, session.id);
    const input = await stepInput(this.deps, session, steps, step.position);
    checkOperations(operations, input.columns, await joinTables(this.deps, session.projectId, operations), ['step', 'operations']);
    const job = await this.ds.transaction(async (em) => {
      const locked = await em.getRepository(BuilderSession).findOne({ where: { id: session.id }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new NotFoundError(SESSION_NOT_FOUND);
      assertOpen(locked);
      await assertIdle(em, locked);
      await em.getRepository(BuilderStep).update({ id: step.id }, { status: 'executing', error: null, executedOperations: operations as never, startedAt: null, finishedAt: null });
      const input: BuilderRunAction = { action: 'execute', sessionId: session.id, stepId: step.id };
      return this.jobs.create(em, { kind: 'builder_run', projectId: session.projectId, entityId: step.id, createdBy: userId, input });
    });
    await this.jobs.start(job);
    return job;
  }

  /** Commits the last executed step's output as a new version (or dataset) with the recipe as its lineage (202). */
  async finalize(userId: string, sessionId: string, p: { mode: FinalizeMode; name?: string; description?: string }): Promise<Job> {
    const session = await this.sessions.load(userId, sessionId, 'editor');
    assertOpen(session);
    const steps = await stepsOf(this.ds, session.id);
    if (!steps.some((s) => s.status === 'executed')) throw new ConflictError('Nothing to finalize: execute at least one step first');
    const job = await this.ds.transaction(async (em) => {
      const locked = await em.getRepository(BuilderSession).findOne({ where: { id: session.id }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new NotFoundError(SESSION_NOT_FOUND);
      assertOpen(locked);
      await assertIdle(em, locked);
      await em.getRepository(BuilderSession).update({ id: session.id }, { status: 'finalizing', error: null, startedAt: null, finishedAt: null });
      const input: BuilderRunAction = { action: 'finalize', sessionId: session.id, mode: p.mode, name: p.name ?? null, description: p.description ?? null };
      return this.jobs.create(em, { kind: 'builder_run', projectId: session.projectId, entityId: session.id, createdBy: userId, input });
    });
    await this.jobs.start(job);
    return job;
  }

  /**
   * Runs the finalized recipe on another version of the project (one with the columns it needs): a new version of that
   * version's dataset (202). A recipe with an uploaded step's output cannot replay (409).
   */
  async replay(userId: string, sessionId: string, versionId: string): Promise<Job> {
    const session = await this.sessions.load(userId, sessionId, 'editor');
    if (session.status !== 'finalized' || !session.recipe) throw new ConflictError('Only a finalized session has a recipe to replay');
    if (session.replayable === false) throw new ConflictError("This session's recipe cannot replay: a step's output was an uploaded file, not operations");
    let version;
    try {
      ({ version } = await this.access.version(userId, versionId, 'editor'));
    } catch (err) {
      if (err instanceof NotFoundError) throw ValidationError.field(['body', 'dataset_version_id'], 'No dataset version with this id in the project', 'not_found');
      throw err;
    }
    const dataset = await this.access.dataset(userId, version.datasetId);
    if (dataset.projectId !== session.projectId) throw ValidationError.field(['body', 'dataset_version_id'], 'No dataset version with this id in the project', 'not_found');
    const recipe = session.recipe as Operation[];
    const joins = await joinTables(this.deps, session.projectId, recipe);
    try {
      checkOperations(recipe, version.columns as never, joins, ['recipe']);
    } catch (err) {
      if (err instanceof ValidationError && err.issues) throw ValidationError.field(['body', 'dataset_version_id'], `The recipe does not fit this version: ${err.issues[0].msg}`, 'recipe_mismatch');
      throw err;
    }
    const input: BuilderRunAction = { action: 'replay', sessionId: session.id, versionId: version.id };
    return this.jobs.createAndStart({ kind: 'builder_run', projectId: session.projectId, entityId: version.id, createdBy: userId, input });
  }
}
