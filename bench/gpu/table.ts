/**
 * The table bench/gpu prints: the engine's per-step times beside PyTorch's for the same work on the same machine,
 * and the ratio. PyTorch's figures are the JSON lines torch_ref.py and torch_chain.py print.
 */
import type { GpuDescription } from '../../platform/gpu';
import type { FitResult } from './fit-case';
import type { StepTiming } from './measure';

export interface EngineResult {
  name: string;
  what: string;
  torch: string;
  timing?: StepTiming;
  notYet?: string;
  error?: string;
}

export interface EngineRun {
  at: string;
  node: string;
  gpu?: GpuDescription;
  /** Why no adapter could be had. */
  noGpu?: string;
  results: EngineResult[];
}

/** One PyTorch result line: `ms_per_step` is with a synchronize (a read back) each step; `end_sync` one at the end. */
interface TorchLine {
  result?: string;
  device?: string;
  ms_per_step?: number;
  end_sync?: { ms_per_step?: number } | null;
  ok?: boolean;
  skipped?: boolean;
}

export function parseTorchLines(text: string): TorchLine[] {
  const out: TorchLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as TorchLine);
    } catch {
      // A line cut short by a timeout: the ones before it still count.
    }
  }
  return out;
}

function torchFigure(lines: TorchLine[], result: string, device: 'cuda' | 'cpu'): TorchLine | undefined {
  return lines.find((l) => l.result === result && l.device === device && l.ok !== false && !l.skipped && typeof l.ms_per_step === 'number');
}

const ms = (v: number | undefined): string => (v === undefined ? '—' : v < 1 ? `${v.toFixed(3)} ms` : `${v.toFixed(2)} ms`);
const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);

function pad(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`).join('\n');
}

/** A Markdown table (readable as plain text too) and the notes under it. */
export function formatTable(run: EngineRun, torch: TorchLine[], fit?: FitResult): string {
  const header = ['step', 'engine, read back each step', 'engine, one read back', 'PyTorch CUDA (each / end)', 'PyTorch CPU', 'engine ÷ PyTorch CUDA'];
  const rows = [header, header.map((h) => '-'.repeat(h.length))];
  for (const r of run.results) {
    const cuda = torchFigure(torch, r.torch, 'cuda');
    const cpu = torchFigure(torch, r.torch, 'cpu');
    const cudaText = cuda ? `${ms(cuda.ms_per_step)}${cuda.end_sync?.ms_per_step !== undefined ? ` / ${ms(cuda.end_sync.ms_per_step)}` : ''}` : '—';
    const t = r.timing;
    const loss = typeof t?.last === 'number' ? `, loss ${t.last.toFixed(4)}` : '';
    const engineEach = t ? `${ms(t.eachMs)} (${t.eachSteps} steps${loss})` : (r.notYet ?? `failed: ${r.error}`);
    const engineReplay = t ? `${ms(t.replayMs)} (${t.replaySteps} steps)` : '';
    const rel = t && cuda ? `${ratio(t.eachMs, cuda.ms_per_step)} each, ${ratio(t.replayMs, cuda.end_sync?.ms_per_step ?? cuda.ms_per_step)} one read back` : '—';
    rows.push([`${r.name}: ${r.what}`, engineEach, engineReplay, cudaText, ms(cpu?.ms_per_step), rel]);
  }
  const notes: string[] = [];
  if (fit) {
    const whole = `${fit.wholeFitS.toFixed(1)} s${fit.stoppedEarly ? ` (projected: ${fit.epochsDone} of ${fit.epochsAsked} epochs ran in its time)` : ''}`;
    notes.push(
      `ctgan_fit: CTGAN fit of ${fit.rows} rows, ${fit.epochsAsked} epochs, transformer included: ${whole}; preparation ${fit.prepareS.toFixed(1)} s, ${fit.msPerStep.toFixed(2)} ms a step in the fit (SDV's figure: sdv.sh; about 270 s on the H200 machine's 16 CPU cores, 755 s on CUDA)`,
    );
  }
  if (run.gpu) {
    const g = run.gpu;
    notes.push(`adapter: ${[g.vendor, g.architecture, g.device].filter(Boolean).join(' ')} (${g.description}; ${g.backend})`);
    if (g.software) notes.push("Mesa's software renderer: these are CPU figures, NOT GPU figures.");
  } else {
    notes.push(`no GPU adapter: ${run.noGpu}`);
  }
  if (!torch.some((l) => l.result)) notes.push('PyTorch: no figures (torch is not installed here, or its scripts did not run).');
  else if (!torch.some((l) => l.device === 'cuda')) notes.push('PyTorch: no CUDA device, CPU figures only.');
  notes.push(`engine ÷ PyTorch CUDA below 1 means the engine is faster. Node ${run.node}, ${run.at}.`);
  return `${pad(rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
}
