/**
 * The one source of a privacy session's and a policy's counts: `privacyCounts` (the session page, the policy page, the
 * privacy PDF and the reports all read it). Each finding is in exactly one state:
 *
 * - `excluded`: left out of the session by a user (a per-session override);
 * - `transformed`: the session's last output changed it;
 * - `pending`: neither; of those, `without_action` have no action at all (no policy rule and no override), the others
 *   will be transformed by the next run.
 *
 * So `findings = excluded + transformed + pending`. `protected` counts the findings that are or will be transformed
 * (transformed, or pending with an action), and `compliance_score` is protected / (findings - excluded) as a
 * percentage (100 when nothing is left to protect). A policy's counts are those of its latest detected session,
 * measured against its current rules.
 */
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { isAction } from '../../engine/privacy';
import { PrivacyPolicy, PrivacyResult, PrivacyRule } from '../../entities';
import { effectiveRules, type EffectiveRule, type RuleOf } from './effective-rules';
import { engineConfig } from './rule-config';

export interface FindingCounts {
  findings: number;
  excluded: number;
  transformed: number;
  pending: number;
  /** Pending findings no rule or override gives an action: the next run leaves them as they are. */
  without_action: number;
  /** Transformed, or pending with an action. */
  protected: number;
  /** protected / (findings - excluded) as a percentage, one decimal; 100 when that is 0. */
  compliance_score: number;
}

/** What counting needs of a stored finding. */
export type CountedFinding = Pick<PrivacyResult, 'piiType' | 'excluded' | 'actionOverride' | 'transformed'>;

export const NO_FINDINGS: FindingCounts = { findings: 0, excluded: 0, transformed: 0, pending: 0, without_action: 0, protected: 0, compliance_score: 100 };

/**
 * The rule a finding gets in its session: none when excluded; the override's action (with the policy rule's settings
 * when it is the same action, the action's defaults otherwise); else the policy's rule.
 */
export function findingRule(f: Pick<CountedFinding, 'piiType' | 'excluded' | 'actionOverride'>, ruleOf: RuleOf): EffectiveRule | null {
  if (f.excluded) return null;
  const policyRule = ruleOf(f.piiType);
  if (f.actionOverride && isAction(f.actionOverride)) {
    return policyRule?.action === f.actionOverride ? policyRule : { action: f.actionOverride, config: engineConfig(f.actionOverride, {}), ruleId: null };
  }
  return policyRule;
}

/** The counts of one session's findings under its policy's rules. */
export function countFindings(findings: readonly CountedFinding[], ruleOf: RuleOf): FindingCounts {
  const c = { ...NO_FINDINGS, findings: findings.length };
  for (const f of findings) {
    if (f.excluded) c.excluded++;
    else if (f.transformed) c.transformed++;
    else {
      c.pending++;
      if (!findingRule(f, ruleOf)) c.without_action++;
    }
  }
  c.protected = c.transformed + c.pending - c.without_action;
  const counted = c.findings - c.excluded;
  c.compliance_score = counted ? Math.round((1000 * c.protected) / counted) / 10 : 100;
  return c;
}

/** A policy's counts: those of its latest detected session (null before any detection). */
export interface PolicyCounts {
  session_id: string | null;
  counts: FindingCounts | null;
}

/**
 * The counts of some sessions (by id) and of some policies (through their latest detected session), in a few queries.
 * Sessions without findings, or not detected yet, count zero; policies never detected get `{session_id: null, counts: null}`.
 * Callers check access first: this reads by id.
 */
export async function privacyCounts(
  ds: DataSource,
  q: { sessionIds?: readonly string[]; policyIds?: readonly string[] },
): Promise<{ sessions: Map<string, FindingCounts>; policies: Map<string, PolicyCounts> }> {
  const sessionIds = [...new Set(q.sessionIds ?? [])];
  const policyIds = [...new Set(q.policyIds ?? [])];
  const latest: { policy_id: string; id: string }[] = policyIds.length
    ? await ds.query(`SELECT DISTINCT ON (policy_id) policy_id, id FROM privacy_sessions WHERE policy_id = ANY($1) AND detected ORDER BY policy_id, created_at DESC, id DESC`, [policyIds])
    : [];
  const allSessions = [...new Set([...sessionIds, ...latest.map((l) => l.id)])];
  const owners: { id: string; policy_id: string }[] = allSessions.length ? await ds.query('SELECT id, policy_id FROM privacy_sessions WHERE id = ANY($1)', [allSessions]) : [];
  const ownerPolicies = [...new Set(owners.map((o) => o.policy_id))];
  const [policies, rules, findings] = ownerPolicies.length
    ? await Promise.all([
        ds.getRepository(PrivacyPolicy).find({ select: { id: true, profile: true }, where: { id: In(ownerPolicies) } }),
        ds.getRepository(PrivacyRule).find({ where: { policyId: In(ownerPolicies) } }),
        ds.getRepository(PrivacyResult).find({ select: { sessionId: true, piiType: true, excluded: true, actionOverride: true, transformed: true }, where: { sessionId: In(allSessions) } }),
      ])
    : [[], [], []];
  const ruleOfPolicy = new Map(
    policies.map((p) => [
      p.id,
      effectiveRules(
        p,
        rules.filter((r) => r.policyId === p.id),
      ),
    ]),
  );
  const bySession = new Map<string, FindingCounts>();
  for (const o of owners) {
    const ruleOf = ruleOfPolicy.get(o.policy_id) ?? (() => null);
    bySession.set(
      o.id,
      countFindings(
        findings.filter((f) => f.sessionId === o.id),
        ruleOf,
      ),
    );
  }
  const sessions = new Map(sessionIds.map((id) => [id, bySession.get(id) ?? { ...NO_FINDINGS }]));
  const policyCounts = new Map<string, PolicyCounts>(
    policyIds.map((id) => {
      const session = latest.find((l) => l.policy_id === id);
      return [id, session ? { session_id: session.id, counts: bySession.get(session.id) ?? { ...NO_FINDINGS } } : { session_id: null, counts: null }];
    }),
  );
  return { sessions, policies: policyCounts };
}

/** The spec's compliance fields of a policy, from its counts (findings, not types: the same numbers as its session's). */
export interface ComplianceFigures {
  /** Findings of the policy's latest detected session. */
  detected_count: number;
  /** Of those, the findings transformed or to be transformed. */
  protected_count: number;
  /** Findings neither transformed nor excluded. */
  pending_count: number;
  /** protected / (findings - excluded) as a percentage; null before any detection. */
  compliance_score: number | null;
}

export function complianceFigures(pc: PolicyCounts): ComplianceFigures {
  const c = pc.counts;
  if (!c) return { detected_count: 0, protected_count: 0, pending_count: 0, compliance_score: null };
  return { detected_count: c.findings, protected_count: c.protected, pending_count: c.pending, compliance_score: c.compliance_score };
}
