import type { RuleOf } from './effective-rules';
import { countFindings, findingRule, type CountedFinding } from './finding-counts';

/** email is hashed by the policy, name has no rule. */
const ruleOf: RuleOf = (t) => (t === 'email' ? { action: 'hash', config: { length: 12 }, ruleId: 'r1' } : null);
const finding = (piiType: string, o: Partial<CountedFinding> = {}): CountedFinding => ({ piiType, excluded: false, actionOverride: null, transformed: false, ...o });

test('every finding is in one state: excluded, transformed or pending (some without an action)', () => {
  const c = countFindings([finding('email', { transformed: true }), finding('email'), finding('name'), finding('name', { excluded: true })], ruleOf);
  expect(c).toEqual({ findings: 4, excluded: 1, transformed: 1, pending: 2, without_action: 1, protected: 2, compliance_score: 66.7 });
  expect(c.findings).toBe(c.excluded + c.transformed + c.pending);
});

test('an override gives an action; an excluded finding has none whatever its rule', () => {
  expect(findingRule(finding('name', { actionOverride: 'redact' }), ruleOf)).toMatchObject({ action: 'redact', ruleId: null });
  // The same action as the policy's keeps the rule's settings.
  expect(findingRule(finding('email', { actionOverride: 'hash' }), ruleOf)).toEqual({ action: 'hash', config: { length: 12 }, ruleId: 'r1' });
  expect(findingRule(finding('email', { excluded: true }), ruleOf)).toBeNull();
  expect(countFindings([finding('name', { actionOverride: 'mask' })], ruleOf)).toMatchObject({ pending: 1, without_action: 0, protected: 1, compliance_score: 100 });
});

test('no findings, or only excluded ones, is full compliance', () => {
  expect(countFindings([], ruleOf).compliance_score).toBe(100);
  expect(countFindings([finding('name', { excluded: true })], ruleOf)).toMatchObject({ findings: 1, excluded: 1, pending: 0, compliance_score: 100 });
});
