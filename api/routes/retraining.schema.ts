import { z } from 'zod';
import { GATE_METRICS, GATE_OPS, RETRAINING_OUTCOMES } from '../../entities';
import { ALGOS, CONFIG_LIMITS, SORT_METRICS, STOPPING_METRICS } from '../../engine/automl';
import { nonBlank, pageQuery, uuidParam } from '../validation';

/**
 * The request schemas of the retraining routes (api/routes/retraining.ts). What a schema cannot see (the registered
 * model and alert rules of the project, a canary outcome's steps) the services check.
 */

/** Every sort metric an experiment may have: the gate's metric (one the champion's kind has is checked when it runs). */
const GATE_METRIC_NAMES = [...new Set(['deviance', 'quantile_loss', ...Object.values(SORT_METRICS).flat()])] as [string, ...string[]];

const CRON_PART = /^(\*|(\d{1,2})(?:-(\d{1,2}))?)(?:\/(\d{1,2}))?$/;
/** Each field's range: minute, hour, day of month, month, day of week (0 = Sunday). */
const CRON_RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 6],
];

/** A five-field cron (minute hour day-of-month month day-of-week, UTC; numbers, `*`, ranges, lists, steps) or a @-macro. */
export function isCron(s: string): boolean {
  if (['@hourly', '@daily', '@weekly', '@monthly', '@yearly'].includes(s)) return true;
  const fields = s.trim().split(/\s+/);
  return (
    fields.length === 5 &&
    fields.every((field, i) => {
      const [lo, hi] = CRON_RANGES[i];
      return field.split(',').every((part) => {
        const m = CRON_PART.exec(part);
        if (!m) return false;
        const [from, to, step] = [m[2], m[3] ?? m[2], m[4]].map((x) => (x === undefined ? undefined : Number(x)));
        if (step !== undefined && (step < 1 || step > hi)) return false;
        return m[1] === '*' || (from !== undefined && to !== undefined && from >= lo && to <= hi && from <= to);
      });
    })
  );
}

const cron = z
  .string()
  .max(100)
  .refine(isCron, { message: 'schedule_cron must be a five-field cron (minute hour day-of-month month day-of-week, UTC) or @hourly, @daily, @weekly, @monthly, @yearly' })
  .meta({ description: 'A five-field cron in UTC (`0 3 * * 1`: Mondays 03:00) or @hourly, @daily, @weekly, @monthly, @yearly' });

const triggers = z
  .object({
    schedule_cron: cron.nullable().optional(),
    drift: z
      .object({
        threshold: z.number().gt(0).max(100).default(0.2).meta({ description: 'The worst feature PSI above which a drift result counts (default 0.2)' }),
        consecutive: z.number().int().min(1).max(20).default(1).meta({ description: 'How many drift results in a row, since the last retraining, must be above it (default 1)' }),
      })
      .strict()
      .nullable()
      .optional()
      .meta({ description: "Drift of the champion's production deployment, checked after each drift_compute result" }),
    new_dataset_version: z.boolean().optional().meta({ description: "A new version of the champion's training dataset starts a retraining" }),
    alert_rule_ids: z.array(uuidParam).max(20).optional().meta({ description: 'accuracy_degradation rules of the project whose alerts, when they begin firing, start a retraining' }),
  })
  .strict();

/** Overrides of the champion's experiment config (the rest is the champion's). */
const experiment = z
  .object({
    max_models: z.number().int().min(1).max(CONFIG_LIMITS.max_models_cap),
    max_runtime_secs: z.number().int().min(1).max(CONFIG_LIMITS.max_runtime_secs_max),
    max_runtime_secs_per_model: z.number().int().min(1).max(CONFIG_LIMITS.max_runtime_secs_per_model_max).nullable(),
    seed: z
      .number()
      .int()
      .min(-(2 ** 31))
      .max(2 ** 31 - 1),
    nfolds: z
      .number()
      .int()
      .min(0)
      .max(CONFIG_LIMITS.nfolds_max)
      .refine((n) => n !== 1, { message: 'nfolds must be 0 (no cross-validation) or at least 2' }),
    exclude_algos: z.array(z.enum(ALGOS)).max(ALGOS.length - 1),
    stopping_rounds: z.number().int().min(0).max(CONFIG_LIMITS.stopping_rounds_max),
    stopping_metric: z.enum(STOPPING_METRICS),
    stopping_tolerance: z.number().min(0).max(1),
    exploitation_ratio: z.number().min(0).max(1),
  })
  .partial()
  .strict()
  .meta({ description: "Overrides of the champion's experiment config; the rest is the champion's" });

const gate = z
  .object({
    metric: z.enum(GATE_METRIC_NAMES).nullable().optional().meta({ description: "The metric compared on the holdout; default the champion's experiment sort metric" }),
    min_improvement: z.number().min(-1e6).max(1e6).optional().meta({ description: 'How much better the challenger must be (in the direction the metric improves); default 0' }),
  })
  .strict();

const canary = z
  .object({
    steps: z
      .array(
        z
          .object({
            traffic_percent: z.number().int().min(1).max(100),
            pause_secs: z.number().int().min(0).max(86_400),
            gates: z
              .array(
                z.object({ metric: z.enum(GATE_METRICS), op: z.enum(GATE_OPS), threshold: z.number().min(-1e12).max(1e12), min_samples: z.number().int().min(1).max(1_000_000).optional() }).strict(),
              )
              .max(10)
              .optional(),
          })
          .strict(),
      )
      .min(1)
      .max(20),
    gate_interval_secs: z.number().int().min(5).max(3600).optional(),
  })
  .strict()
  .meta({ description: 'The canary rollout of a challenger that passed its gate (outcome canary): as POST …/deployments/{id}/canary takes them' });

const policyFields = {
  name: nonBlank(200),
  enabled: z.boolean(),
  triggers,
  experiment,
  gate,
  outcome: z.enum(RETRAINING_OUTCOMES).meta({ description: 'What a challenger that passed its gate becomes (default approval)' }),
  canary: canary.nullable(),
  cooldown_secs: z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .meta({ description: 'Triggers within this long of the last retraining are skipped (default 3600); a manual run is not' }),
};

export const createPolicyBody = z
  .object({
    project_id: uuidParam,
    registered_model_id: uuidParam.meta({ description: 'A registered model of the project; its champion (alias `champion`, else its production version) is retrained' }),
    name: policyFields.name,
    enabled: policyFields.enabled.optional(),
    triggers: policyFields.triggers.optional(),
    experiment: policyFields.experiment.optional(),
    gate: policyFields.gate.optional(),
    outcome: policyFields.outcome.optional(),
    canary: policyFields.canary.optional(),
    cooldown_secs: policyFields.cooldown_secs.optional(),
  })
  .strict();

export const patchPolicyBody = z
  .object({
    name: policyFields.name.optional(),
    enabled: policyFields.enabled.optional(),
    triggers: policyFields.triggers.optional(),
    experiment: policyFields.experiment.optional(),
    gate: policyFields.gate.optional(),
    outcome: policyFields.outcome.optional(),
    canary: policyFields.canary.optional(),
    cooldown_secs: policyFields.cooldown_secs.optional(),
  })
  .strict();

export const policyListQuery = pageQuery(200).extend({ project_id: uuidParam });

export const jobListQuery = pageQuery(200).extend({ project_id: uuidParam.optional(), policy_id: uuidParam.optional() });

export const decisionBody = z.object({ comment: z.string().max(2000).optional() }).strict();
