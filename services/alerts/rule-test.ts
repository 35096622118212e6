import type { DataSource } from 'typeorm';
import { Not } from 'typeorm';
import { Deployment, type AlertRule } from '../../entities';
import type { DatasetVersions } from '../dataset-versions';
import { UnavailableError } from '../errors';
import type { ModelServing } from '../model-serving';

/**
 * The evaluator's metric functions as the rule test uses them. They live with the evaluation's activities
 * (activities/alerts-evaluate/metrics.ts), which services may not import: the API's composition root hands them in
 * (api/app.ts), so a test measures exactly what an evaluation would.
 */
export interface RuleMetrics {
  measureRule(src: { ds: DataSource; serving: ModelServing; datasetVersions: DatasetVersions }, rule: AlertRule, deployments: Deployment[], now: Date): Promise<RuleMeasurement[]>;
  wouldFire(rule: Pick<AlertRule, 'operator' | 'threshold'>, m: RuleMeasurement): boolean;
}

export interface RuleMeasurement {
  deploymentId: string | null;
  value: number | null;
  samples: number;
  estimated: boolean;
  sufficient: boolean;
}

export interface MeasuredDeployment {
  deployment_id: string | null;
  value: number | null;
  samples: number;
  estimated: boolean;
  would_fire: boolean;
}

/** A rule evaluated now, nothing written: per deployment, and overall the first that would fire (else the first). */
export interface RuleTestResult {
  value: number | null;
  samples: number;
  estimated: boolean;
  would_fire: boolean;
  deployments: MeasuredDeployment[];
}

export async function testRule(
  metrics: RuleMetrics | undefined,
  src: { ds: DataSource; serving: ModelServing; datasetVersions: DatasetVersions },
  rule: AlertRule,
  now = new Date(),
): Promise<RuleTestResult> {
  if (!metrics) throw new UnavailableError('Rule tests are not available in this process');
  // The deployments an evaluation watches: the rule's own, else every one of the project not archived.
  const deployments = await src.ds.getRepository(Deployment).find({ where: { projectId: rule.projectId, stage: Not('archived') }, order: { createdAt: 'ASC' } });
  const measured = (await metrics.measureRule(src, rule, deployments, now)).map((m): MeasuredDeployment => ({
    deployment_id: m.deploymentId,
    value: m.value,
    samples: m.samples,
    estimated: m.estimated,
    would_fire: metrics.wouldFire(rule, m),
  }));
  const head = measured.find((m) => m.would_fire) ?? measured[0];
  return { value: head?.value ?? null, samples: head?.samples ?? 0, estimated: head?.estimated ?? false, would_fire: head?.would_fire ?? false, deployments: measured };
}
