import { Readable } from 'node:stream';
import { In } from 'typeorm';
import { withTextRowBatches } from '../../engine/data';
import { Artifact, Dataset, DatasetVersion, PrivacyResult, PrivacySession } from '../../entities';
import type { ArtifactStore } from '../../platform/artifact-store';
import { NotFoundError } from '../../services/errors';
import { projectSecrets } from '../../services/privacy/secrets';
import { applyStep, csvLine, transformPlan } from '../../services/privacy/transform-plan';
import type { JobProgress } from '../job-activity';
import { claimSession, detect, type PrivacyWorkDeps, rulesOf, sessionForJob, storeFindings } from '../privacy-detect/detect';

/** What a `privacy_transform` job returns (kept on its jobs row). */
export type PrivacyTransformResult = { session_id: string; artifact_id: string; rows: number; size_bytes: number };

/**
 * The `privacy_transform` job's work: every row of the version through the policy's rules, written as CSV into the
 * artifact store while it is read (one batch in memory at a time, progress after each, so a cancel stops the stream
 * there and the store keeps nothing of it). A session never detected is detected first. The artifact row and the
 * session's link to it are written in one transaction, only while the session is still transforming under this job:
 * a canceled or failed run keeps no file.
 */
export async function transformPii(deps: PrivacyWorkDeps & { store: ArtifactStore }, jobId: string, sessionId: string, progress: JobProgress): Promise<PrivacyTransformResult> {
  const { ds, store, datasetVersions } = deps;
  const session = await sessionForJob(ds, sessionId);
  const ruleOf = await rulesOf(deps, session.policyId);
  if (!session.detected) {
    const detection = await detect(deps, session, progress, 0, 20);
    await ds.transaction(async (em) => {
      await claimSession(em, session.id, jobId, 'transforming');
      await storeFindings(em, session.id, detection, ruleOf);
    });
  }
  const findings = await ds.getRepository(PrivacyResult).findBy({ sessionId });
  const plan = transformPlan(findings, ruleOf);
  const secrets = await projectSecrets(ds, session.projectId);
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: session.datasetVersionId });
  const dataset = await ds.getRepository(Dataset).findOneBy({ id: session.datasetId });
  if (!version || !dataset) throw new NotFoundError('Dataset version not found');
  const filename = `${dataset.name}-v${version.version}-anonymized.csv`;

  let rows = 0;
  const stored = await withTextRowBatches(await datasetVersions.parquetPath(version), async (columns, batches, rowCount) => {
    const kept = columns.map((c, i) => ({ name: c.name, i, step: plan.get(c.name) })).filter((c) => !c.step?.dropColumn);
    async function* csv(): AsyncGenerator<string> {
      yield csvLine(kept.map((c) => c.name));
      for await (const batch of batches) {
        let chunk = '';
        for (const row of batch) chunk += csvLine(kept.map((c) => applyStep(c.step, row[c.i], secrets)));
        rows += batch.length;
        yield chunk;
        await progress(25 + Math.floor((70 * rows) / Math.max(1, rowCount)), `transformed ${rows} of ${rowCount} rows`);
      }
    }
    // A failed put (the stream's error: a cancel refused the progress above) leaves no object under the key.
    return store.put(session.projectId, filename, Readable.from(csv()));
  });
  await progress(97, 'storing the output');
  try {
    const artifact = await ds.transaction(async (em) => {
      await claimSession(em, session.id, jobId, 'transforming');
      const a = em.getRepository(Artifact).create({
        projectId: session.projectId,
        kind: 'privacy_output',
        ownerType: 'privacy_session',
        ownerId: session.id,
        filename,
        contentType: 'text/csv; charset=utf-8',
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        storageKey: stored.storageKey,
      });
      await em.getRepository(Artifact).insert(a);
      await em.getRepository(PrivacySession).update({ id: session.id }, { outputArtifactId: a.id });
      const done = findings.filter((f) => plan.get(f.column)?.applies(f)).map((f) => f.id);
      await em.getRepository(PrivacyResult).update({ sessionId: session.id }, { transformed: false });
      if (done.length) await em.getRepository(PrivacyResult).update({ id: In(done) }, { transformed: true });
      return a;
    });
    return { session_id: session.id, artifact_id: artifact.id, rows, size_bytes: artifact.sizeBytes };
  } catch (err) {
    await store.remove(stored.storageKey);
    throw err;
  }
}
