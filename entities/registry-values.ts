/**
 * The registry's reference values (issue 31), below the entities so the columns, the request schemas and the
 * services share one list.
 */

/** A registry version's stage, MLflow's: `none` until a transition moves it. */
export const REGISTRY_STAGES = ['none', 'staging', 'production', 'archived'] as const;
export type RegistryStage = (typeof REGISTRY_STAGES)[number];

/** Where a transition request may move a version. */
export const TRANSITION_TARGETS = ['staging', 'production', 'archived'] as const;
export type TransitionTarget = (typeof TRANSITION_TARGETS)[number];

export const TRANSITION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TransitionStatus = (typeof TRANSITION_STATUSES)[number];

/**
 * The registry's own event kinds. Other parts append theirs (rollout_started, retraining_started, ...): the column is
 * plain text, so a new kind takes no migration.
 */
export const REGISTRY_EVENT_KINDS = [
  'model_created',
  'model_updated',
  'model_deleted',
  'version_created',
  'version_updated',
  'alias_moved',
  'alias_deleted',
  'transition_requested',
  'transition_approved',
  'transition_rejected',
  'stage_changed',
] as const;
export type RegistryEventKind = (typeof REGISTRY_EVENT_KINDS)[number];

/** An alias: lower-case, starting with a letter, at most 40 characters (`champion`, `challenger`, custom). */
export const ALIAS_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;
