import type { AlertMetric, AlertRule, Deployment, GateResult, Model, RolloutGate } from '../../entities';
import { conditionHolds, measureRule, type Measurement, type MetricSources } from '../alerts-evaluate/metrics';

/** The alert metric that measures each gate metric (accuracy is read back from the degradation, see below). */
const MEASURED_AS: Record<RolloutGate['metric'], AlertMetric> = {
  error_rate: 'error_rate',
  latency_p95: 'latency_p95',
  latency_p99: 'latency_p99',
  prediction_anomaly: 'prediction_anomaly',
  accuracy: 'accuracy_degradation',
};

/**
 * The step's gates on the candidate's own requests of [since, now), measured as alert rules measure them
 * (activities/alerts-evaluate/metrics.ts: the same queries, percentiles, PSI and labelled accuracy). A gate is a
 * success condition, as in Argo Rollouts and Flagger: it passes while `observed op threshold` holds, and fails when
 * it does not with `min_samples` observations; fewer observations (or nothing to measure) decide nothing and pass.
 * `accuracy` is the accuracy on the labelled predictions of the step (ground truth through the feedback route; below
 * `min_samples` labels the model's own confidence estimate, as the alert does): the model's validation accuracy less
 * the measured degradation; a regression model has none, so an accuracy gate never fails it.
 */
export async function evaluateGates(src: MetricSources, candidate: Deployment, model: Model, gates: RolloutGate[], since: Date, now: Date): Promise<GateResult[]> {
  const windowMinutes = Math.max(now.getTime() - since.getTime(), 1) / 60_000;
  const results: GateResult[] = [];
  for (const gate of gates) {
    const rule = {
      id: `gate-${gate.metric}`,
      projectId: candidate.projectId,
      deploymentId: candidate.id,
      metric: MEASURED_AS[gate.metric],
      operator: gate.op,
      threshold: gate.threshold,
      windowMinutes,
      minSamples: gate.min_samples,
    } as AlertRule;
    const [m] = await measureRule(src, rule, [candidate], now);
    const observed = m ? observedValue(gate, m, model) : null;
    const sufficient = !!m && m.sufficient && observed !== null;
    results.push({
      metric: gate.metric,
      op: gate.op,
      observed,
      threshold: gate.threshold,
      passed: !sufficient || conditionHolds(gate.op, observed as number, gate.threshold),
      samples: m?.samples ?? 0,
    });
  }
  return results;
}

function observedValue(gate: RolloutGate, m: Measurement, model: Model): number | null {
  if (m.value === null) return null;
  if (gate.metric !== 'accuracy') return m.value;
  const validation = (model.metrics as Record<string, unknown>).accuracy;
  return typeof validation === 'number' && Number.isFinite(validation) ? validation - m.value : null;
}
