import { z } from 'zod';
import { SCENARIO_STATUSES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/studio.ts and the studio routes, for the OpenAPI document and through it the web
 * UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/**
 * What the deployment's predict answered for a row (services/deployment-predictions.ts `DeploymentPrediction`): the
 * prediction, and for classifiers the probabilities and the decision (null where the model kind has none).
 */
const output = z
  .object({
    prediction: z.unknown().optional(),
    probabilities: z.record(z.string(), z.number().nullable()).optional(),
    probability: z.number().nullable().optional(),
    decision_threshold: z.number().nullable().optional(),
    positive_class: z.string().nullable().optional(),
    predicted_positive: z.boolean().nullable().optional(),
  })
  .loose();

/** Each feature's contribution to the score (TreeSHAP). */
const contribution = z.object({ feature: z.string(), value: z.number() }).loose();

/** Feature name → dtype. */
const featureSchema = z.record(z.string(), z.string());

export const studioSessionSummarySchema = z.object({ id: z.string(), project_id: z.string(), deployment_id: z.string(), created_at: dateTimestamp }).loose();

/** A scenario: output and contributions are null until a run succeeds. */
export const scenarioSchema = z
  .object({
    id: z.string(),
    session_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    changes: jsonObject,
    status: z.enum(SCENARIO_STATUSES),
    scenario_input: jsonObject,
    output: output.nullable(),
    contributions: z.array(contribution).nullable(),
    error: z.string().nullable(),
    created_at: dateTimestamp,
    updated_at: dateTimestamp,
  })
  .loose();

export const studioSessionSchema = z
  .object({
    id: z.string(),
    project_id: z.string(),
    deployment_id: z.string(),
    feature_schema: featureSchema,
    baseline_input: jsonObject,
    baseline_output: output,
    baseline_contributions: z.array(contribution),
    scenarios: z.array(scenarioSchema),
    created_by: z.string().nullable(),
    created_at: dateTimestamp,
  })
  .loose();

/** `GET /api/studio/deployments/{id}/schema`. */
export const deploymentSchemaSchema = z
  .object({
    deployment_id: z.string(),
    project_id: z.string(),
    model_id: z.string(),
    experiment_id: z.string(),
    dataset_version_id: z.string().nullable(),
    target_column: z.string().nullable(),
    feature_schema: featureSchema,
    example_input: jsonObject,
    /** `training_statistics`, or `unavailable` (example_input {}) when the training data is gone. */
    example_source: z.string(),
  })
  .loose();

/** The baseline against every succeeded scenario (services/studio-compare.ts). */
export const comparisonSchema = z
  .object({
    baseline: z.object({ output, contributions: z.array(contribution) }).loose(),
    scenarios: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          output,
          delta: z
            .object({
              /** Scenario minus baseline for regression; null for class labels. */
              prediction: z.number().nullable(),
              /** For binary models, the positive class's probability, scenario minus baseline; null otherwise. */
              probability: z.number().nullable(),
              contributions: z.array(z.object({ feature: z.string(), delta: z.number() }).loose()),
            })
            .loose(),
        })
        .loose(),
    ),
  })
  .loose();

/** What running a scenario answers. */
export const scenarioRunSchema = z
  .object({ ok: z.boolean(), scenario_id: z.string(), status: z.enum(SCENARIO_STATUSES), output: output.nullable(), contributions: z.array(contribution).nullable() })
  .loose();
