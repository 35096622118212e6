import type { EntityManager } from 'typeorm';
import { Artifact, SynthgenModel } from '../../entities';

/**
 * Unlinks the model's training checkpoint and deletes its artifact row, in the caller's transaction (which holds the
 * model's row or is about to); returns the file's storage key, to remove once that transaction commits. A checkpoint
 * lives only while its training job is open: a newer one replaces it, and the job's end (stored model, failure,
 * cancel) unlinks it.
 */
export async function unlinkCheckpoint(em: EntityManager, modelId: string): Promise<string | null> {
  const [row]: { checkpoint_artifact_id: string | null }[] = await em.query('SELECT checkpoint_artifact_id FROM synthgen_models WHERE id = $1', [modelId]);
  if (!row?.checkpoint_artifact_id) return null;
  const a = await em.getRepository(Artifact).findOneBy({ id: row.checkpoint_artifact_id });
  await em.getRepository(SynthgenModel).update({ id: modelId }, { checkpointArtifactId: null, checkpointEpoch: null });
  if (a) await em.getRepository(Artifact).delete({ id: a.id });
  return a?.storageKey ?? null;
}
