/**
 * Presidio (bench/pii/presidio_run.py in the venv of bench/pii/README.md) on a set of texts, in the same run as ours:
 * its spans per text as [entity, start, end, score] and the seconds its analyzer took (the median of `passes` timed
 * passes over the texts, wall-clock; each pass's wall-clock and CPU seconds beside it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';

export interface PresidioRun {
  sample: string;
  at: string;
  loadavg: number[];
  texts: [string, number, number, number][][];
  text_seconds: number;
  /** Per timed pass: wall-clock seconds, and the CPU seconds of Presidio's process (absent in runs cached before). */
  text_passes?: number[];
  text_cpu_passes?: number[];
  entities: string[];
}

export function runPresidio(texts: readonly { text: string }[], sample: string, dir: string, passes = 1): PresidioRun {
  const input = join(dir, 'input.json');
  const output = join(dir, 'presidio-out.json');
  writeFileSync(input, JSON.stringify({ texts: texts.map((t) => t.text), cells: [], passes }));
  const python = process.env.PII_PYTHON ?? join(homedir(), '.cache/mlsvc/venv-pii/bin/python');
  const load = loadavg();
  const run = spawnSync(python, [join(__dirname, '../../../bench/pii/presidio_run.py'), input, output], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`presidio failed: ${run.stderr?.slice(-2000)}`);
  const out = JSON.parse(readFileSync(output, 'utf8')) as Omit<PresidioRun, 'sample' | 'at' | 'loadavg'>;
  return { ...out, sample, at: new Date().toISOString(), loadavg: load };
}
