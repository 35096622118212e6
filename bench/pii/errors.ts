/**
 * Error analysis of the independent PII benchmark, for the engineers improving the engine: the most common missed
 * gold spans and false positives per type (with why each was missed and an example sentence), and recall on the
 * slices the issue names (lower-case, all-caps, non-ASCII, one-word and multi-word entities) for both detectors.
 *
 * Tune on the dev split (`--split dev`), not on the test sample: misses read here are the test's answers.
 */
import type { CorpusText } from './corpora';
import { missReason, type MissReason, type Outcome, type Pred } from './score';

interface Grouped {
  text: string;
  count: number;
  reasons: Partial<Record<MissReason, number>>;
  /** What covered it instead, when something did (a detector label). */
  by: Record<string, number>;
  example: string;
}
export interface ErrorReport {
  reasons: Record<string, Partial<Record<MissReason, number>>>;
  missed: Record<string, Grouped[]>;
  falsePositives: Record<string, Grouped[]>;
  slices: Record<string, Record<string, { gold: number; ours: number; presidio: number | null }>>;
}

const TOP = 30;

/** The slices of a gold span's surface the issue reports recall on. */
function slicesOf(s: string): string[] {
  const out: string[] = [];
  if (/\p{L}/u.test(s) && s === s.toLowerCase()) out.push('lower-case');
  else if (/\p{L}{2}/u.test(s) && s === s.toUpperCase()) out.push('ALL-CAPS');
  else out.push('mixed case');
  if (/[^\p{ASCII}]/u.test(s)) out.push('non-ASCII');
  out.push(/\s/.test(s.trim()) ? 'multi-word' : 'one word');
  return out;
}

function group(into: Map<string, Map<string, Grouped>>, type: string, surface: string, example: string, reason?: MissReason, by?: string): void {
  const byType = into.get(type) ?? (into.set(type, new Map()), into.get(type)!);
  const key = surface.toLowerCase();
  const g = byType.get(key) ?? (byType.set(key, { text: surface, count: 0, reasons: {}, by: {}, example }), byType.get(key)!);
  g.count++;
  if (reason) g.reasons[reason] = (g.reasons[reason] ?? 0) + 1;
  if (by) g.by[by] = (g.by[by] ?? 0) + 1;
}

const top = (m: Map<string, Map<string, Grouped>>): Record<string, Grouped[]> =>
  Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([t, g]) => [t, [...g.values()].sort((a, b) => b.count - a.count || a.text.localeCompare(b.text)).slice(0, TOP)]));

const clip = (s: string): string => (s.length > 200 ? s.slice(0, 197) + '...' : s);

export function errorReport(texts: CorpusText[], ours: Pred[][], oursOutcome: Outcome, judgedBy: Set<string>[], presidioOutcome: Outcome | null): ErrorReport {
  const missed = new Map<string, Map<string, Grouped>>();
  const fps = new Map<string, Map<string, Grouped>>();
  const reasons: ErrorReport['reasons'] = {};
  const slices: ErrorReport['slices'] = {};
  texts.forEach((t, i) => {
    t.spans.forEach((g, j) => {
      const surface = t.text.slice(g.start, g.end);
      const hitOurs = oursOutcome.typedMatch[i][j] >= 0;
      const hitPres = presidioOutcome ? presidioOutcome.typedMatch[i][j] >= 0 : null;
      for (const sl of [...slicesOf(surface), `source ${t.source}`]) {
        const byType = (slices[g.type] ??= {});
        const c = (byType[sl] ??= { gold: 0, ours: 0, presidio: presidioOutcome ? 0 : null });
        c.gold++;
        if (hitOurs) c.ours++;
        if (hitPres && c.presidio !== null) c.presidio++;
      }
      if (hitOurs) return;
      const why = missReason(g, ours[i], judgedBy[i]);
      const r = (reasons[g.type] ??= {});
      r[why.reason] = (r[why.reason] ?? 0) + 1;
      group(missed, g.type, surface, clip(t.text), why.reason, why.by);
    });
    ours[i].forEach((p, k) => {
      if (oursOutcome.falsePositive[i][k]) group(fps, p.label, t.text.slice(p.start, p.end), clip(t.text));
    });
  });
  return { reasons, missed: top(missed), falsePositives: top(fps), slices };
}

const ratio = (n: number, d: number): string => (d ? (n / d).toFixed(2) : '—');

/** The report as Markdown, for reading. */
export function errorMarkdown(rep: ErrorReport, header: string): string {
  const out: string[] = [header, ''];
  out.push('## Recall by slice (typed match)', '', '| type | slice | gold | ours | Presidio |', '|---|---|---|---|---|');
  for (const [type, sl] of Object.entries(rep.slices).sort(([a], [b]) => a.localeCompare(b)))
    for (const [name, c] of Object.entries(sl)) out.push(`| ${type} | ${name} | ${c.gold} | ${ratio(c.ours, c.gold)} | ${c.presidio === null ? '—' : ratio(c.presidio, c.gold)} |`);
  out.push('', '## Why ours missed (typed match)', '', '| type | no prediction | unjudged type | other type | under half | merged |', '|---|---|---|---|---|---|');
  for (const [type, r] of Object.entries(rep.reasons).sort(([a], [b]) => a.localeCompare(b)))
    out.push(`| ${type} | ${r.no_prediction ?? 0} | ${r.unjudged_type ?? 0} | ${r.other_type ?? 0} | ${r.under_half ?? 0} | ${r.merged ?? 0} |`);
  out.push(
    '',
    'no prediction: nothing of ours touches it; unjudged type: covered by a type this corpus does not label (e.g. nrp, date);',
    'other type: covered by another judged type; under half: touched but less than half covered; merged: one prediction took it and a neighbour.',
  );
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  for (const [title, groups] of [
    [`Most common missed gold spans (top ${TOP} per type)`, rep.missed],
    [`Most common false positives (top ${TOP} per predicted type)`, rep.falsePositives],
  ] as const) {
    out.push('', `## ${title}`);
    for (const [type, gs] of Object.entries(groups)) {
      out.push('', `### ${type}`, '', '| span | count | why / covered by | example |', '|---|---|---|---|');
      for (const g of gs) {
        const why = [...Object.entries(g.reasons).map(([k, v]) => `${k} ${v}`), ...Object.entries(g.by).map(([k, v]) => `${k} ${v}`)].join(', ');
        out.push(`| ${cell(g.text)} | ${g.count} | ${why || '—'} | ${cell(g.example)} |`);
      }
    }
  }
  return out.join('\n') + '\n';
}
