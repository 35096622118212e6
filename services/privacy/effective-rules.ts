/**
 * What a policy does to each PII type. What that makes of a session's findings (the session's and the policy's counts) is
 * finding-counts.ts.
 *
 * - A type with enabled rules takes the highest-priority one (ties: the older rule).
 * - A type whose rules are all disabled is left as it is: disabling is an explicit opt-out.
 * - A type without rules falls back to the profile's default action when the profile covers it (so a rule-less
 *   `hipaa` policy redacts the 18 identifiers); otherwise nothing is done and its findings stay pending.
 */
import { profileById, type ActionConfig, type ActionId } from '../../engine/privacy';
import type { PrivacyPolicy, PrivacyRule } from '../../entities';
import { engineConfig } from './rule-config';

export interface EffectiveRule {
  action: ActionId;
  config: ActionConfig;
  /** The rule it comes from; null for the profile's default. */
  ruleId: string | null;
}

export type RuleOf = (piiType: string) => EffectiveRule | null;

export function effectiveRules(policy: Pick<PrivacyPolicy, 'profile'>, rules: readonly PrivacyRule[]): RuleOf {
  const byType = new Map<string, PrivacyRule[]>();
  for (const r of rules) byType.set(r.piiType, [...(byType.get(r.piiType) ?? []), r]);
  const profile = profileById(policy.profile);
  const covered = new Set(profile?.coveredTypes ?? []);
  return (piiType) => {
    const own = byType.get(piiType);
    if (own?.length) {
      const enabled = own.filter((r) => r.isEnabled).sort((a, b) => b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime());
      const r = enabled[0];
      return r ? { action: r.action, config: engineConfig(r.action, r.config), ruleId: r.id } : null;
    }
    if (profile && covered.has(piiType)) return { action: profile.default_action, config: {}, ruleId: null };
    return null;
  };
}
