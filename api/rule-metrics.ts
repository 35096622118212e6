import { measureRule, wouldFire } from '../activities/alerts-evaluate/metrics';
import type { RuleMetrics } from '../services/alerts/rule-test';

/**
 * The evaluator's metrics, handed to the application layer by the API's composition root: the rule test
 * (`POST /api/mlops/alerts/rules/{id}/test`) measures exactly what an evaluation would, and services/ may not import
 * activities/ itself.
 */
export const ruleMetrics: RuleMetrics = { measureRule, wouldFire };
