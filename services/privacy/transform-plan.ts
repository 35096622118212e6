import { applyAction, detectText, transformText, type ProjectSecrets, type TextRule } from '../../engine/privacy';
import type { RuleOf } from './effective-rules';
import { findingRule } from './finding-counts';

/** A detection as the plan needs it: a stored session result (with its per-session override) or a fresh engine finding. */
export interface Finding {
  column: string;
  piiType: string;
  scope: string;
  excluded?: boolean;
  actionOverride?: string | null;
}

/** What a column becomes: its column-level rule, or the rules of the types found inside its cells. */
export interface ColumnStep {
  whole: { action: NonNullable<ReturnType<RuleOf>>; piiType: string } | null;
  cellTypes: string[];
  cellRules: Record<string, TextRule>;
  dropColumn: boolean;
  applies(f: Finding): boolean;
}

export function transformPlan(findings: readonly Finding[], ruleOf: RuleOf): Map<string, ColumnStep> {
  const plan = new Map<string, ColumnStep>();
  for (const f of findings) {
    // An excluded finding takes no rule, an overridden one its session's action (finding-counts.ts).
    const rule = findingRule({ piiType: f.piiType, excluded: f.excluded ?? false, actionOverride: f.actionOverride ?? null }, ruleOf);
    if (!rule) continue;
    const step: ColumnStep = plan.get(f.column) ?? {
      whole: null,
      cellTypes: [],
      cellRules: {},
      dropColumn: false,
      // A whole-cell action replaces every value of the column, so it transforms every finding there (of any type:
      // counting only its own type left the others "pending" in a column the output no longer holds them in).
      applies(r) {
        if (r.excluded) return false;
        return this.whole ? true : Object.hasOwn(this.cellRules, r.piiType);
      },
    };
    if (f.scope === 'column') {
      // The most confident column-level finding decides what the whole cell is.
      if (!step.whole) step.whole = { action: rule, piiType: f.piiType };
      step.dropColumn = rule.action === 'suppress' && rule.config.scope === 'column';
    } else {
      step.cellTypes.push(f.piiType);
      step.cellRules[f.piiType] = { action: rule.action, config: rule.config };
    }
    plan.set(f.column, step);
  }
  return plan;
}

export function applyStep(step: ColumnStep | undefined, value: string | null, secrets: ProjectSecrets): string | null {
  if (!step || value === null || value === '') return value;
  if (step.whole) return applyAction(step.whole.action.action, value, step.whole.piiType, step.whole.action.config, secrets).value;
  if (!step.cellTypes.length) return value;
  // Detected as the session's detection does (every type, its threshold), then only the spans of types with a rule
  // change: a run restricted to those types would resolve overlaps differently ("Houston" the model's place would
  // become a gazetteer's name), so the text would not lose exactly the spans the findings and their figures count.
  const found = detectText(value);
  return found.length ? transformText(value, found, step.cellRules, secrets).text : value;
}

/** One RFC 4180 line: fields with a comma, quote, line break or edge space are quoted; null is an empty field. */
export function csvLine(fields: readonly (string | null)[]): string {
  return fields.map((v) => (v === null ? '' : /[",\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',') + '\r\n';
}
