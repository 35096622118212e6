import type { RetrainingJob, RetrainingState } from '../../entities';
import { OPEN_RETRAINING_STATES } from '../../entities';

/**
 * A job's state as answered: its own, unless its `retraining_run` job ended failed or canceled while the state was
 * still open (a worker's failure, a cancel, the reconciler closing a lost workflow): then `failed`, with the job's
 * error as the reason. So no path that closes the job leaves a retraining open forever.
 */
export function effectiveState(j: Pick<RetrainingJob, 'state' | 'status'>): RetrainingState {
  return OPEN_RETRAINING_STATES.includes(j.state) && (j.status === 'failed' || j.status === 'canceled') ? 'failed' : j.state;
}

export function effectiveReason(j: Pick<RetrainingJob, 'state' | 'status' | 'reason' | 'error'>): string | null {
  return effectiveState(j) === 'failed' && j.state !== 'failed' ? (j.error ?? (j.status === 'canceled' ? 'Canceled' : 'Failed')) : j.reason;
}

/** The SQL of an open job of table alias `j` (the same rule as `effectiveState`). */
export const OPEN_JOB_SQL = `j.state IN ('queued','training','evaluating','awaiting_approval') AND j.status NOT IN ('failed','canceled')`;
