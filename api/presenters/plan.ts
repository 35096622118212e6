import type { PlanRecord } from '../../services/plan-admin';

/** A plan for the admin routes: what it sets, what applies, and who holds it. */
export function presentAdminPlan(r: PlanRecord) {
  return {
    id: r.plan.id,
    name: r.plan.name,
    display_name: r.plan.displayName,
    limits: r.plan.limits,
    effective_limits: r.effective,
    users_count: r.users_count,
    teams_count: r.teams_count,
    is_default: r.is_default,
    created_at: r.plan.createdAt.toISOString(),
  };
}
