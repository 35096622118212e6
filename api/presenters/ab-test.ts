import type { AbTest } from '../../entities';
import type { AbStats } from '../../services/ab-test-stats';
import type { Presented } from './common.schema';
import type { abTestSchema, abTestWithStatsSchema } from './ab-test.schema';

export function presentAbTest(t: AbTest): Presented<typeof abTestSchema> {
  return {
    id: t.id,
    project_id: t.projectId,
    name: t.name,
    description: t.description,
    state: t.state,
    variants: t.variants,
    primary_metric: t.primaryMetric,
    alpha: t.alpha,
    min_samples: t.minSamples,
    conclusion: t.conclusion,
    promoted_at: t.promotedAt,
    promoted_deployment_id: t.promotedDeploymentId,
    created_by: t.createdBy,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    started_at: t.startedAt,
    concluded_at: t.concludedAt,
  };
}

export function presentAbTestWithStats({ test, stats }: { test: AbTest; stats: AbStats }): Presented<typeof abTestWithStatsSchema> {
  return { ...presentAbTest(test), stats };
}
