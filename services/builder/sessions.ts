import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { STEP_NAMES, type StepName } from '../../engine/builder';
import { Artifact, BuilderMessage, BuilderSession, BuilderStep, DatasetVersion } from '../../entities';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Access, ProjectRole } from '../access';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';

export const SESSION_NOT_FOUND = 'Builder session not found';
export const STEP_NOT_FOUND = 'Step not found';
/** The owner type of a session's step outputs in `artifacts`. */
export const BUILDER_OWNER = 'builder_session';
/** The artifact kind of a step's output (a canonical Parquet table, like a version's file). */
export const BUILDER_OUTPUT_KIND = 'builder_output';

/** Inserts the artifact row of a step's output (executed or uploaded), owned by its session, in the caller's transaction. */
export async function insertStepOutput(em: EntityManager, session: BuilderSession, filename: string, stored: { sizeBytes: number; sha256: string }, storageKey: string): Promise<Artifact> {
  const artifact = em.getRepository(Artifact).create({
    projectId: session.projectId,
    kind: BUILDER_OUTPUT_KIND,
    ownerType: BUILDER_OWNER,
    ownerId: session.id,
    filename,
    contentType: 'application/vnd.apache.parquet',
    sizeBytes: stored.sizeBytes,
    sha256: stored.sha256,
    storageKey,
  });
  await em.getRepository(Artifact).insert(artifact);
  return artifact;
}

export interface CreateSession {
  project_id: string;
  dataset_id: string;
  /** The version number; the latest when omitted. */
  version?: number;
  target_column?: string | null;
  name?: string;
  allow_sample?: boolean;
}

export interface SessionListQuery extends PageQuery {
  project_id: string;
  dataset_id?: string;
  sort_field: 'created_at' | 'updated_at' | 'name';
  sort_direction: 'asc' | 'desc';
}

/** A session as its detail shows it: its five steps in order and its chat, oldest first. */
export interface SessionDetail {
  session: BuilderSession;
  steps: BuilderStep[];
  messages: BuilderMessage[];
}

const SORT_COLUMNS: Record<SessionListQuery['sort_field'], keyof BuilderSession> = { created_at: 'createdAt', updated_at: 'updatedAt', name: 'name' };

/**
 * Builder sessions (issue 35): a session prepares one dataset version in five steps and never changes it. Readable
 * by the project's viewers, changed by its editors; a session elsewhere is its own 404. Proposals and edits are in
 * steps.ts, executions, finalize and replay (the `builder_run` job) in run.ts.
 */
export class BuilderSessions {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly store: ArtifactStore,
  ) {}

  /** The session, if the user may see it with `minRole`; 404 alike for missing and other projects' sessions. */
  async load(userId: string, sessionId: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<BuilderSession> {
    const session = await em.getRepository(BuilderSession).findOneBy({ id: sessionId });
    if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
    await this.access.role(userId, session.projectId, SESSION_NOT_FOUND, minRole, em);
    return session;
  }

  /** The session and one of its steps by name; a name outside the five is the step's 404. */
  async loadStep(userId: string, sessionId: string, stepName: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<{ session: BuilderSession; step: BuilderStep }> {
    const session = await this.load(userId, sessionId, minRole, em);
    if (!(STEP_NAMES as readonly string[]).includes(stepName)) throw new NotFoundError(STEP_NOT_FOUND);
    const step = await em.getRepository(BuilderStep).findOneBy({ sessionId, name: stepName as StepName });
    if (!step) throw new NotFoundError(STEP_NOT_FOUND);
    return { session, step };
  }

  /** A new session on a version of one of the project's datasets, with its five steps, each empty and `proposed`. */
  async create(userId: string, p: CreateSession): Promise<SessionDetail> {
    await this.access.project(userId, p.project_id, 'editor');
    const dataset = await this.access.dataset(userId, p.dataset_id);
    if (dataset.projectId !== p.project_id) throw new NotFoundError('Dataset not found');
    const version = await this.ds.getRepository(DatasetVersion).findOne({ where: { datasetId: dataset.id, ...(p.version === undefined ? {} : { version: p.version }) }, order: { version: 'DESC' } });
    if (!version) throw new NotFoundError('Dataset version not found');
    const target = p.target_column ?? null;
    if (target !== null && !version.columns.some((c) => c.name === target))
      throw ValidationError.field(['body', 'target_column'], `No column named "${target}" in ${dataset.name} v${version.version}`);
    const session = this.ds.getRepository(BuilderSession).create({
      projectId: p.project_id,
      datasetId: dataset.id,
      sourceVersionId: version.id,
      name: p.name ?? `${dataset.name} v${version.version}`.slice(0, 200),
      targetColumn: target,
      allowSample: p.allow_sample ?? false,
      status: 'open',
      error: null,
      resultVersionId: null,
      recipe: null,
      replayable: null,
      createdBy: userId,
    });
    const steps = STEP_NAMES.map((name, position) =>
      this.ds
        .getRepository(BuilderStep)
        .create({ sessionId: session.id, projectId: p.project_id, name, position, status: 'proposed', error: null, operations: [], proposedBy: null, preview: null, summary: null }),
    );
    await this.ds.transaction(async (em) => {
      await em.getRepository(BuilderSession).insert(session);
      await em.getRepository(BuilderStep).insert(steps);
    });
    return this.detail(session);
  }

  async list(userId: string, q: SessionListQuery): Promise<Page<BuilderSession>> {
    await this.access.project(userId, q.project_id);
    const [items, total] = await this.ds.getRepository(BuilderSession).findAndCount({
      where: { projectId: q.project_id, ...(q.dataset_id ? { datasetId: q.dataset_id } : {}) },
      order: { [SORT_COLUMNS[q.sort_field]]: q.sort_direction.toUpperCase(), id: 'ASC' },
      take: q.limit,
      skip: q.offset,
    });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  async get(userId: string, sessionId: string): Promise<SessionDetail> {
    return this.detail(await this.load(userId, sessionId));
  }

  async detail(session: BuilderSession): Promise<SessionDetail> {
    const [steps, messages] = await Promise.all([
      this.ds.getRepository(BuilderStep).find({ where: { sessionId: session.id }, order: { position: 'ASC' } }),
      this.ds.getRepository(BuilderMessage).find({ where: { sessionId: session.id }, order: { createdAt: 'ASC', id: 'ASC' } }),
    ]);
    return { session, steps, messages };
  }

  /**
   * Deletes a session with its steps, chat and step outputs (editor). Not while one of its jobs runs: its end would
   * write into a session that is gone (cancel the job first).
   */
  async delete(userId: string, sessionId: string): Promise<void> {
    const keys = await this.ds.transaction(async (em) => {
      const session = await this.load(userId, sessionId, 'editor', em);
      await em.getRepository(BuilderSession).findOne({ where: { id: session.id }, lock: { mode: 'pessimistic_write' } });
      await assertIdle(em, session);
      const artifacts = await em.getRepository(Artifact).findBy({ ownerType: BUILDER_OWNER, ownerId: session.id });
      await em.getRepository(BuilderSession).delete({ id: session.id });
      if (artifacts.length) await em.getRepository(Artifact).delete({ id: In(artifacts.map((a) => a.id)) });
      return artifacts.map((a) => a.storageKey);
    });
    for (const key of keys) await this.store.remove(key);
  }
}

/**
 * The step-output artifacts of the sessions on a dataset (or on one of its versions): deleting the dataset or the
 * version cascades those sessions away in the database, while `artifacts` (owned by type and id, no foreign key) would
 * keep their rows and files. The caller deletes these rows in the same transaction and their files after it, as a
 * session's own delete does.
 */
export async function builderArtifactsOf(em: EntityManager, on: { datasetId: string } | { sourceVersionId: string }): Promise<Artifact[]> {
  // The sessions and their steps are locked first: an upload-result (which locks the session) or an execution's commit
  // (which locks its step) adding an output now either commits before the read below or finds its session gone.
  const sessions = await em.getRepository(BuilderSession).find({ select: { id: true }, where: on, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  if (!sessions.length) return [];
  const ids = sessions.map((s) => s.id);
  await em.getRepository(BuilderStep).find({ select: { id: true }, where: { sessionId: In(ids) }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  return em.getRepository(Artifact).findBy({ ownerType: BUILDER_OWNER, ownerId: In(ids) });
}

/** 409 while a job of the session runs (a step executing, or finalize): one job at a time per session. */
export async function assertIdle(em: EntityManager, session: BuilderSession): Promise<void> {
  if (session.status === 'finalizing') throw new ConflictError('The session is being finalized: wait for its job to end');
  const busy = await em.getRepository(BuilderStep).findOneBy({ sessionId: session.id, status: 'executing' });
  if (busy) throw new ConflictError(`Step ${busy.name} is executing: wait for its job to end, or cancel it`);
}

/** 409 once the session is finalized (its recipe is fixed) or while it is being finalized. */
export function assertOpen(session: BuilderSession): void {
  if (session.status === 'finalized') throw new ConflictError('The session is finalized: start a new session to change its steps');
}
