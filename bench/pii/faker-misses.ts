/**
 * The values of one type that the engine leaves uncovered in Faker carrier sets, each with its sentence and what was
 * detected there: the view that reads misses by what the values share rather than by what one carrier says.
 *
 *   for s in first second …; do node .build-pii/bench/pii/faker-bench.js 25 71 $s --no-presidio;
 *     cp bench/results/pii-faker/texts.json /tmp/t71-$s.json; done
 *   node .build-pii/bench/pii/faker-misses.js TYPE [SHOWN=30] /tmp/t71-*.json
 *
 * A value is uncovered when detections of the types the bench judges cover less than half of its non-space
 * characters (faker-bench.ts's "found"). Use a seed no session tuned on, and write the next carrier set before
 * changing anything this prompts.
 */
import { readFileSync } from 'node:fs';
import { detectText } from '../../engine/privacy';

interface Text {
  text: string;
  gold: { type: string; start: number; end: number }[];
}

const JUDGED = new Set(['name', 'address', 'location', 'phone', 'fax_number', 'organization', 'credit_card', 'title', 'age', 'nrp']);

function main(): void {
  const [type, shownArg, ...files] = process.argv.slice(2);
  if (!type || files.length === 0) throw new Error('usage: faker-misses.js TYPE [SHOWN] texts.json…');
  const shown = Number(shownArg) || 30;
  const texts = files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Text[]);
  let total = 0;
  const missed: string[] = [];
  for (const t of texts) {
    const found = detectText(t.text).filter((d) => JUDGED.has(d.type));
    for (const g of t.gold) {
      if (g.type !== type) continue;
      total++;
      let chars = 0;
      let covered = 0;
      for (let i = g.start; i < g.end; i++) {
        if (!/\S/.test(t.text[i])) continue;
        chars++;
        if (found.some((d) => d.start <= i && i < d.end)) covered++;
      }
      if (covered * 2 >= chars) continue;
      const around = found.map((d) => `${d.type}:${JSON.stringify(d.text)}`).join(' | ');
      missed.push(`${JSON.stringify(t.text.slice(g.start, g.end))} in ${JSON.stringify(t.text)}\n     ${around}`);
    }
  }
  console.log(`${type}: ${missed.length} of ${total} values uncovered`);
  // An even sample over the sets, so no one carrier fills the list.
  const step = Math.max(1, Math.floor(missed.length / shown));
  for (let i = 0; i < missed.length; i += step) console.log(missed[i]);
}

main();
