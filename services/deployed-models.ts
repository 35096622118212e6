import type { EntityManager } from 'typeorm';
import { ConflictError } from './errors';

/**
 * Refuses (409) to delete models that an active deployment serves: the delete would cascade to
 * the deployment and production would vanish without a transition. The models' rows are locked
 * first, so a deployment created at the same moment (its foreign key takes a share lock on the
 * model) either lands before this check and is seen, or waits and then fails on the deleted model.
 */
export async function refuseDeployedModels(em: EntityManager, modelsQuery: string, params: unknown[], message: string): Promise<void> {
  await em.query(`SELECT id FROM models WHERE id IN (${modelsQuery}) FOR UPDATE`, params);
  const [serving] = await em.query(`SELECT 1 FROM deployments WHERE is_active AND model_id IN (${modelsQuery}) LIMIT 1`, params);
  if (serving) throw new ConflictError(message);
}
