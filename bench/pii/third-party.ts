/**
 * What redaction leaves of the personal data in a third-party labelled set (corpora.ts THIRD_PARTY_PII: sentences
 * about leaks, with names, e-mails, passwords and identifiers of many kinds), ours and Presidio's in the same run.
 *
 *   node .build-pii/bench/pii/third-party.js [--no-presidio]    # → bench/results/pii-third-party.json
 *
 * Per label group: the share of the gold spans' non-space characters inside a detection of any type (what a
 * redaction of everything detected removes), and the share of gold spans at least half covered. Precision is not
 * reported: the set labels only some of what is personal in its sentences (dates, places, companies go unlabelled).
 * Presidio at score 0 (where it redacts the most) and at 0.5.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectText } from '../../engine/privacy';
import { THIRD_PARTY_PII, sha256, sourceTexts, type CorpusText } from './corpora';
import { runPresidio } from './presidio';

interface Covered {
  chars: number;
  charsCovered: number;
  spans: number;
  spansFound: number;
}

const empty = (): Covered => ({ chars: 0, charsCovered: 0, spans: 0, spansFound: 0 });

/** Coverage of each gold span by a detector's spans, summed per group (the gold span's engine type). */
function coverage(texts: CorpusText[], predicted: { start: number; end: number }[][]): Map<string, Covered> {
  const out = new Map<string, Covered>([['all', empty()]]);
  texts.forEach((t, i) => {
    const hit = new Uint8Array(t.text.length);
    for (const p of predicted[i]) hit.fill(1, p.start, p.end);
    for (const g of t.spans) {
      let chars = 0;
      let covered = 0;
      for (let k = g.start; k < g.end; k++) {
        if (/\s/.test(t.text[k])) continue;
        chars++;
        covered += hit[k];
      }
      if (chars === 0) continue;
      for (const key of ['all', g.type]) {
        const c = out.get(key) ?? empty();
        c.chars += chars;
        c.charsCovered += covered;
        c.spans++;
        if (covered * 2 >= chars) c.spansFound++;
        out.set(key, c);
      }
    }
  });
  return out;
}

const share = (a: number, b: number): string => (b ? (a / b).toFixed(3) : '—');

function main(): void {
  const withPresidio = !process.argv.includes('--no-presidio');
  const texts = sourceTexts(THIRD_PARTY_PII, 'test');
  const outDir = join(__dirname, '../../../bench/results');
  const work = join(outDir, 'pii-third-party');
  mkdirSync(work, { recursive: true });

  const ours = coverage(
    texts,
    texts.map((t) => detectText(t.text)),
  );
  const sample = sha256(JSON.stringify(texts.map((t) => t.text)));
  const pres = withPresidio ? runPresidio(texts, sample, work) : null;
  const presidioAt = (threshold: number): Map<string, Covered> | null =>
    pres
      ? coverage(
          texts,
          pres.texts.map((rs) => rs.filter((r) => r[3] >= threshold).map(([, start, end]) => ({ start, end }))),
        )
      : null;
  const theirs = presidioAt(0);
  const theirsHalf = presidioAt(0.5);

  const lines = [
    `${THIRD_PARTY_PII.title} (${THIRD_PARTY_PII.licence}, ${THIRD_PARTY_PII.repo}@${THIRD_PARTY_PII.commit.slice(0, 7)}): ${texts.length} sentences, ${ours.get('all')!.spans} labelled spans`,
    '',
    '| gold type | spans | chars | ours char recall | ours spans found | Presidio char recall | Presidio spans found | Presidio ≥ 0.5 char recall |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const groups = [...ours.keys()].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : ours.get(b)!.chars - ours.get(a)!.chars));
  for (const g of groups) {
    const o = ours.get(g)!;
    const p = theirs?.get(g);
    const h = theirsHalf?.get(g);
    lines.push(
      `| ${g} | ${o.spans} | ${o.chars} | ${share(o.charsCovered, o.chars)} | ${share(o.spansFound, o.spans)} | ${p ? share(p.charsCovered, p.chars) : '—'} | ${p ? share(p.spansFound, p.spans) : '—'} | ${h ? share(h.charsCovered, h.chars) : '—'} |`,
    );
  }
  console.log(lines.join('\n'));
  writeFileSync(
    join(outDir, 'pii-third-party.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        command: `node .build-pii/bench/pii/third-party.js ${process.argv.slice(2).join(' ')}`.trim(),
        source: { id: THIRD_PARTY_PII.id, title: THIRD_PARTY_PII.title, licence: THIRD_PARTY_PII.licence, url: THIRD_PARTY_PII.url, commit: THIRD_PARTY_PII.commit },
        sample,
        ours: Object.fromEntries(ours),
        presidio: theirs ? Object.fromEntries(theirs) : null,
        presidioAtHalf: theirsHalf ? Object.fromEntries(theirsHalf) : null,
      },
      null,
      2,
    ) + '\n',
  );
}

main();
