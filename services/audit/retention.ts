import type { EntityManager } from 'typeorm';

/**
 * Deletes audit entries created before `date`; returns how many. The one way entries leave the log: the append-only
 * trigger lets this transaction through because it sets `mlsvc.audit_retention` for itself only (`SET LOCAL`,
 * undone at commit or rollback). Runs in the caller's transaction when `manager` is one, else in its own.
 */
export async function deleteAuditEntriesBefore(manager: EntityManager, date: Date): Promise<number> {
  const run = async (em: EntityManager) => {
    await em.query("SELECT set_config('mlsvc.audit_retention', 'on', true)");
    const [, count] = (await em.query('DELETE FROM audit_log WHERE created_at < $1', [date])) as [unknown, number];
    return count;
  };
  return manager.queryRunner?.isTransactionActive ? run(manager) : manager.transaction(run);
}
