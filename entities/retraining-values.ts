/**
 * Retraining's reference values (issue 31, part T), below the entities so the columns, the request schemas and the
 * services share one list.
 */

/**
 * A retraining job's states. `registered` is the end of the `register` outcome (the challenger registered with its
 * alias, nothing deployed); the open states are the first four.
 */
export const RETRAINING_STATES = ['queued', 'training', 'evaluating', 'awaiting_approval', 'promoted', 'rejected', 'registered', 'failed'] as const;
export type RetrainingState = (typeof RETRAINING_STATES)[number];
export const OPEN_RETRAINING_STATES: readonly RetrainingState[] = ['queued', 'training', 'evaluating', 'awaiting_approval'];

/** What a policy does with a challenger that passed its gate. */
export const RETRAINING_OUTCOMES = ['register', 'shadow', 'canary', 'auto_promote', 'approval'] as const;
export type RetrainingOutcome = (typeof RETRAINING_OUTCOMES)[number];

/** What started (or tried to start) a retraining. */
export const RETRAINING_TRIGGER_KINDS = ['manual', 'schedule', 'drift', 'new_dataset_version', 'alert'] as const;
export type RetrainingTriggerKind = (typeof RETRAINING_TRIGGER_KINDS)[number];

/** A policy's triggers as stored (the request's, with defaults filled in). */
export interface RetrainingTriggers {
  schedule_cron: string | null;
  drift: { threshold: number; consecutive: number } | null;
  new_dataset_version: boolean;
  alert_rule_ids: string[];
}

/** The gate a challenger passes: its holdout metric beats the champion's by `min_improvement` (null metric: the experiment's sort metric). */
export interface RetrainingGate {
  metric: string | null;
  min_improvement: number;
}

/** A job's evaluation on the fresh holdout. */
export interface RetrainingEvaluation {
  metric: string;
  champion: number | null;
  challenger: number | null;
  improvement: number | null;
  holdout_rows: number;
  passed: boolean;
}
