import { detectText, transformText, type TextRule } from '../engine/privacy';
import type { InputRow } from './model-serving';

/** A deployment's privacy for what it keeps and answers (its config, a request's options on top). */
export interface PayloadPrivacy {
  /** Input column → PII type: the column's values are never kept, only `[MASKED:<type>]`. */
  columnMap: Record<string, string>;
  /** Also find PII inside every other text value (engine/privacy) and redact it as `[<TYPE>]`. */
  anonymize: boolean;
  /** Detections below this confidence are left as they are. */
  threshold: number;
}

export const DEFAULT_PRIVACY_THRESHOLD = 0.5;

const REDACT: TextRule = { action: 'redact', config: { replacement: '[{type}]' } };

/** A text with the PII the engine finds at `threshold` or above redacted as `[<TYPE>]`. */
export function anonymizeText(text: string, threshold: number): string {
  const found = detectText(text, { minConfidence: threshold });
  if (!found.length) return text;
  return transformText(text, found, Object.fromEntries(found.map((d) => [d.type, REDACT]))).text;
}

/** Rows as a log may keep them: mapped columns masked, and with `anonymize` the PII inside other text values redacted. */
export function privatizeRows(rows: InputRow[], p: PayloadPrivacy): InputRow[] {
  const mapped = Object.entries(p.columnMap);
  if (!mapped.length && !p.anonymize) return rows;
  return rows.map((r) => {
    const out: InputRow = { ...r };
    for (const [col, type] of mapped) if (col in out && out[col] !== null) out[col] = `[MASKED:${type}]`;
    if (p.anonymize) {
      for (const [col, v] of Object.entries(out)) if (typeof v === 'string' && !(col in p.columnMap)) out[col] = anonymizeText(v, p.threshold);
    }
    return out;
  });
}

/** Every string inside a JSON value with its PII redacted (a prediction may be text: a label, a name). */
export function anonymizeJson<T>(value: T, threshold: number): T {
  if (typeof value === 'string') return anonymizeText(value, threshold) as T;
  if (Array.isArray(value)) return value.map((v) => anonymizeJson(v, threshold)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, anonymizeJson(v, threshold)])) as T;
  return value;
}
