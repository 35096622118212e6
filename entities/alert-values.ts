/**
 * The reference values of alert rules (the spec's "Alert reference values"), below the entities so the columns,
 * the request schemas and the evaluator share one list. `latency_p95`, `request_volume` and `job_failures` are the
 * identifiers of the three metrics the spec names without one.
 */
export const ALERT_METRICS = ['drift_psi', 'accuracy_degradation', 'error_rate', 'latency_p99', 'model_staleness', 'prediction_anomaly', 'latency_p95', 'request_volume', 'job_failures'] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const ALERT_OPERATORS = ['gt', 'lt', 'gte', 'lte', 'eq', 'neq'] as const;
export type AlertOperator = (typeof ALERT_OPERATORS)[number];

export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ESCALATION_SEVERITIES = ['warning', 'critical'] as const;

export const CHANNEL_TYPES = ['email', 'slack', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** An alert's life: firing until acknowledged or resolved; a resolved alert that fires again is firing again. */
export const ALERT_STATES = ['firing', 'acknowledged', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** What an alert's history records (append-only). */
export const ALERT_EVENTS = ['fired', 'refired', 'escalated', 'notified', 'notify_failed', 'silenced', 'acknowledged', 'resolved', 'auto_resolved'] as const;
export type AlertEventKind = (typeof ALERT_EVENTS)[number];

/** Why a notification is sent. */
export const NOTIFICATION_REASONS = ['firing', 'escalated', 'resolved', 'test'] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** Minutes of `cooldown_minutes` and `escalation_minutes` (the spec's 1-1440). */
export const ALERT_MINUTES = { min: 1, max: 1440 } as const;
