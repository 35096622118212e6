import fs from 'node:fs';
import path from 'node:path';
import { executeOperations, type Operation } from '../../engine/builder';
import { preview, qualityReport } from '../../engine/data';
import { Artifact, BuilderSession, BuilderStep } from '../../entities';
import { insertStepOutput } from '../../services/builder/sessions';
import { invalidateLaterSteps, PREVIEW_ROWS, removeArtifact } from '../../services/builder/steps';
import { joinTables, stepInput, stepsOf } from '../../services/builder/inputs';
import { ConflictError, NotFoundError } from '../../services/errors';
import type { JobFrame, JobProgress } from '../job-activity';
import { engineWork, type BuilderWorkDeps } from './work-deps';

/** What an execution returns (kept on its jobs row). */
export type ExecuteStepResult = { session_id: string; step: string; artifact_id: string; rows_before: number; rows_after: number };

/**
 * A step's operations on its whole input, written by DuckDB into a new Parquet file (streamed: the table never passes
 * through JS), then stored as the step's output with its summary and preview in one transaction, only while the step
 * is still executing under this job. Until that transaction the previous output stays the step's, and a failed or
 * canceled run keeps no file. Executed steps after it become `proposed` again: their input changed.
 */
export async function executeStep(deps: BuilderWorkDeps, sessionId: string, stepId: string, progress: JobProgress, frame: JobFrame): Promise<ExecuteStepResult> {
  const { ds, store } = deps;
  const session = await ds.getRepository(BuilderSession).findOneBy({ id: sessionId });
  const step = await ds.getRepository(BuilderStep).findOneBy({ id: stepId });
  if (!session || !step) throw new NotFoundError('Builder session not found');
  if (step.status !== 'executing') throw new ConflictError(`Step ${step.name} is no longer executing`);
  const operations = (step.executedOperations ?? []) as Operation[];
  const input = await stepInput(deps, session, await stepsOf(ds, session.id), step.position);
  const joins = await joinTables(deps, session.projectId, operations);
  fs.mkdirSync(deps.tmpRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(deps.tmpRoot, 'builder-'));
  let storageKey: string | null = null;
  try {
    const output = path.join(dir, `${step.name}.parquet`);
    await progress(5, `running ${operations.length} operation(s) on ${input.rows} rows`);
    let reported = Promise.resolve();
    const summary = await engineWork(() =>
      executeOperations({
        input: input.path,
        output,
        operations,
        joins: joins.paths,
        signal: frame.signal,
        onProgress: (done, total, message) => {
          // Progress writes are throttled by the frame; they are chained so none is left floating.
          reported = reported.then(() => progress(5 + Math.floor((80 * done) / Math.max(1, total)), message)).catch(() => undefined);
        },
      }),
    );
    await reported;
    await progress(88, 'reading the result');
    const rows = await preview(output, PREVIEW_ROWS);
    // The validate step scores the result: the quality checks (with the target) are what it adds to the summary.
    const quality = step.name === 'validate' ? await qualityReport(output, await deps.qualityPolicy(session.projectId), { target: session.targetColumn }) : undefined;
    await progress(94, 'storing the output');
    storageKey = await store.moveIn(session.projectId, `${step.name}.parquet`, output);
    const stored = await store.describe(storageKey);
    const key = storageKey;
    const old = await ds.transaction(async (em) => {
      // The session first, then its step, as every other writer of a session's steps locks them (a dataset delete
      // locks its sessions, then their steps): in another order a delete racing this commit could deadlock.
      const live = await em.getRepository(BuilderSession).findOne({ where: { id: session.id }, lock: { mode: 'pessimistic_write' } });
      if (!live) throw new ConflictError(`Step ${step.name} is no longer executing: its session was deleted`);
      const current = await em.getRepository(BuilderStep).findOne({ where: { id: step.id }, lock: { mode: 'pessimistic_write' } });
      if (current?.status !== 'executing') throw new ConflictError(`Step ${step.name} is no longer executing`);
      const artifact = await insertStepOutput(em, session, `${step.name}.parquet`, stored, key);
      await em.getRepository(BuilderStep).update(
        { id: step.id },
        {
          status: 'executed',
          error: null,
          outputArtifactId: artifact.id,
          outputColumns: summary.columns_after,
          outputRows: summary.rows_after,
          uploaded: false,
          summary: (quality ? { ...summary, quality } : summary) as never,
          preview: { columns: summary.columns_after, rows } as never,
        },
      );
      await invalidateLaterSteps(em, session.id, step.position);
      return { artifactId: artifact.id, previous: current.outputArtifactId ? await em.getRepository(Artifact).findOneBy({ id: current.outputArtifactId }) : null };
    });
    storageKey = null;
    if (old.previous) await removeArtifact(ds, store, old.previous);
    return { session_id: session.id, step: step.name, artifact_id: old.artifactId, rows_before: summary.rows_before, rows_after: summary.rows_after };
  } finally {
    if (storageKey) await store.remove(storageKey);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
