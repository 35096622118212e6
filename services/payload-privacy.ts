import { applyAction, detectText, transformText, type ProjectSecrets, type TextRule } from '../engine/privacy';
import type { RuleOf } from './privacy/effective-rules';
import type { InputRow } from './model-serving';

/** A deployment's privacy for what it keeps and answers (its config, a request's options on top). */
export interface PayloadPrivacy {
  /** Input column → PII type: the column's values are never kept, only `[MASKED:<type>]`. */
  columnMap: Record<string, string>;
  /** Also find PII inside every other text value (engine/privacy) and redact it as `[<TYPE>]`. */
  anonymize: boolean;
  /** Detections below this confidence are left as they are. */
  threshold: number;
  /** A privacy policy of the project whose rules decide what is done to each type (see {@link LogPolicy}). */
  policyId: string | null;
}

/** A policy's rules and the project's keys, for what a log keeps: a type the policy leaves alone is still redacted. */
export interface LogPolicy {
  ruleOf: RuleOf;
  secrets: ProjectSecrets;
}

export const DEFAULT_PRIVACY_THRESHOLD = 0.5;

const REDACT: TextRule = { action: 'redact', config: { replacement: '[{type}]' } };

/** A text with the PII the engine finds at `threshold` or above redacted as `[<TYPE>]`, or as the policy's rule says. */
export function anonymizeText(text: string, threshold: number, policy?: LogPolicy): string {
  const found = detectText(text, { minConfidence: threshold });
  if (!found.length) return text;
  return transformText(text, found, Object.fromEntries(found.map((d) => [d.type, ruleFor(d.type, policy)])), policy?.secrets).text;
}

function ruleFor(type: string, policy?: LogPolicy): TextRule {
  const r = policy?.ruleOf(type);
  return r ? { action: r.action, config: r.config } : REDACT;
}

/** Rows as a log may keep them: mapped columns masked, and with `anonymize` the PII inside other text values redacted. */
export function privatizeRows(rows: InputRow[], p: PayloadPrivacy, policy?: LogPolicy): InputRow[] {
  const mapped = Object.entries(p.columnMap);
  if (!mapped.length && !p.anonymize) return rows;
  return rows.map((r) => {
    const out: InputRow = { ...r };
    for (const [col, type] of mapped) if (col in out && out[col] !== null) out[col] = maskedCell(out[col], type, policy);
    if (p.anonymize) {
      for (const [col, v] of Object.entries(out)) if (typeof v === 'string' && !(col in p.columnMap)) out[col] = anonymizeText(v, p.threshold, policy);
    }
    return out;
  });
}

/** A mapped column's value: the policy's action for its type when it has one, else `[MASKED:<type>]`. */
function maskedCell(value: unknown, type: string, policy?: LogPolicy): unknown {
  const r = policy?.ruleOf(type.toLowerCase());
  return r ? applyAction(r.action, String(value), type.toLowerCase(), r.config, policy!.secrets).value : `[MASKED:${type}]`;
}

/** Every string inside a JSON value with its PII redacted (a prediction may be text: a label, a name). */
export function anonymizeJson<T>(value: T, threshold: number, policy?: LogPolicy): T {
  if (typeof value === 'string') return anonymizeText(value, threshold, policy) as T;
  if (Array.isArray(value)) return value.map((v) => anonymizeJson(v, threshold, policy)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, anonymizeJson(v, threshold, policy)])) as T;
  return value;
}
