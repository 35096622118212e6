import type { RoutedRequest } from './deployment-routing';
import type { InputRow, ModelServing, PredictionOut } from './model-serving';
import { anonymizeText, DEFAULT_PRIVACY_THRESHOLD } from './payload-privacy';

/** The per-request predict options of the spec. */
export interface DeploymentPredictOptions {
  include_contributions: boolean;
  /** Keep the request's rows in its inference log; default: the deployment's `store_payload` (false). */
  store_payload?: boolean;
  privacy_policy_id?: string;
  anonymize_logs?: boolean;
  anonymize_response?: boolean;
}

/** How a binary label is decided from the positive class's probability. */
export interface DecisionPolicy {
  version: number;
  threshold: number | null;
  positive_class: string | null;
  source: string;
}

export interface DeploymentPrediction {
  prediction: string | number;
  probabilities?: Record<string, number>;
  probability?: number | null;
  decision_threshold?: number | null;
  positive_class?: string | null;
  predicted_positive?: boolean | null;
}

/**
 * Scores rows with the served model (ModelServing: pooled ONNX sessions, schema-typed rows) and
 * states the decision the spec asks for: for binary models the positive class (the second
 * label), its probability and whether it clears the model's persisted operating threshold (max
 * F1 on the cross-validated scores, the same one behind its stored accuracy); 0.5 when a model
 * has none. Multiclass labels are the most probable class; regression has no decision.
 */
export async function predictDeployment(serving: ModelServing, r: RoutedRequest, rows: InputRow[], opts: DeploymentPredictOptions) {
  const out = await serving.predict(r.model, rows, { contributions: opts.include_contributions });
  let policy: DecisionPolicy;
  let predictions: DeploymentPrediction[];
  if (out.kind === 'binary') {
    const positive = out.classes[1];
    const threshold = out.threshold ?? 0.5;
    policy = { version: 1, threshold, positive_class: positive, source: out.threshold === null ? 'default_0.5' : 'model_operating_threshold_max_f1' };
    predictions = out.predictions.map((p: PredictionOut) => {
      const probability = p.probabilities?.[positive] ?? 0;
      return { prediction: String(p.prediction), probabilities: p.probabilities, probability, decision_threshold: threshold, positive_class: positive, predicted_positive: probability >= threshold };
    });
  } else if (out.kind === 'multiclass') {
    policy = { version: 1, threshold: null, positive_class: null, source: 'argmax' };
    predictions = out.predictions.map((p) => ({
      prediction: String(p.prediction),
      probabilities: p.probabilities,
      probability: p.probabilities?.[String(p.prediction)] ?? null,
      decision_threshold: null,
      positive_class: null,
      predicted_positive: null,
    }));
  } else {
    policy = { version: 1, threshold: null, positive_class: null, source: 'regression' };
    predictions = out.predictions.map((p) => ({ prediction: p.prediction }));
  }
  const config = r.deployment.config as { privacy_anonymize_response?: boolean; privacy_threshold?: number };
  if (opts.anonymize_response ?? config.privacy_anonymize_response) {
    // A predicted text (a label, a generated value) answered with the PII the engine finds in it redacted.
    const threshold = config.privacy_threshold ?? DEFAULT_PRIVACY_THRESHOLD;
    predictions = predictions.map((p) => (typeof p.prediction === 'string' ? { ...p, prediction: anonymizeText(p.prediction, threshold) } : p));
  }
  return { predictions, decision_policy: policy, contributions: out.contributions, warnings: out.warnings, cache: out.cache };
}
