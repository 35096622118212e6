/**
 * What the rollout workflow shares with the code that starts and steers it: plain types and constants, no workflow
 * code, so services can import it (as workflows/job-input.ts is for jobs).
 */
import type { GateResult, RolloutState } from '../services/rollouts';

export interface RolloutWorkflowInput {
  rolloutId: string;
}

/** The workflow id of a rollout, behind the stack's task-queue prefix (one namespace may hold several stacks). */
export function rolloutWorkflowId(queuePrefix: string, rolloutId: string): string {
  return `${queuePrefix}rollout-${rolloutId}`;
}

/** The signals a rollout takes (POST /api/mlops/strategies/{id}/<signal>). */
export const ROLLOUT_SIGNALS = ['pause', 'resume', 'abort', 'promote', 'rollback'] as const;
export type RolloutSignal = (typeof ROLLOUT_SIGNALS)[number];

/** The query that answers a running rollout's live state. */
export const ROLLOUT_STATE_QUERY = 'rolloutState';

export interface RolloutLiveState {
  state: RolloutState;
  step_index: number;
  current_traffic_percent: number;
  gates_last: GateResult[];
}
