/** Apply the rules' actions to the detected spans of a free-text value. */
import { applyAction, type ActionConfig, type ActionId, type ProjectSecrets } from './actions';
import type { Detection } from './types';

export interface TextRule {
  action: ActionId;
  config?: ActionConfig;
}

export interface TransformedText {
  text: string;
  /** Spans changed. */
  applied: number;
}

/** The text with each detection whose type has a rule replaced by the rule's result (suppressed spans are removed). */
export function transformText(text: string, detections: readonly Detection[], rulesByType: Readonly<Record<string, TextRule | undefined>>, secrets: ProjectSecrets = {}): TransformedText {
  const spans = [...detections].filter((d) => rulesByType[d.type]).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  let applied = 0;
  for (const d of spans) {
    if (d.start < at) continue; // overlapping spans: the first one kept wins
    const rule = rulesByType[d.type] as TextRule;
    const result = applyAction(rule.action, text.slice(d.start, d.end), d.type, rule.config, secrets);
    out += text.slice(at, d.start) + (result.value ?? '');
    at = d.end;
    applied++;
  }
  return { text: out + text.slice(at), applied };
}
