/**
 * What bench/gpu times, each with the PyTorch figure it is compared with (a `result` name of torch_ref.py or
 * torch_chain.py, the same shapes and optimiser). A case the engine cannot run yet says so instead of a figure.
 */
import type { AcquiredGpu } from '../../platform/gpu';
// The modules themselves, not engine/gpu's index: the index also exports the DeepLearning trainer, which brings
// engine/automl (DuckDB's and TF.js's native bindings) into a bundle that must hold nothing but the benchmark.
// eslint-disable-next-line no-restricted-imports
import { GpuMlp } from '../../engine/gpu/mlp';
// eslint-disable-next-line no-restricted-imports
import { GpuRuntime, Program, type Tensor } from '../../engine/gpu/runtime';
// eslint-disable-next-line no-restricted-imports
import { GpuCtgan } from '../../engine/gpu/neural/ctgan';
// eslint-disable-next-line no-restricted-imports
import { GpuTvae } from '../../engine/gpu/neural/tvae';
// eslint-disable-next-line no-restricted-imports
import { NeuralRng } from '../../engine/synth/neural/rng';
// eslint-disable-next-line no-restricted-imports
import type { Layout, Span } from '../../engine/synth/neural/transformer';
import type { PreparedStep } from './measure';

export interface BenchCase {
  name: string;
  /** What one step is, for the table. */
  what: string;
  /** The PyTorch result with the same work (torch_ref.py / torch_chain.py `result`). */
  torch: string;
  /** The step ready to time, or why the engine cannot run it yet. */
  prepare(gpu: AcquiredGpu): Promise<PreparedStep | { notYet: string }>;
}

/** Deterministic values in [-scale, scale) (the bench needs no particular data, only the same work every run). */
function values(n: number, seed: number, scale: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s / 2 ** 32) * 2 - 1) * scale;
  });
}

export const CHAIN = { rows: 500, width: 256, layers: 8 } as const;

/**
 * The engine's fused layer kernel alone: CHAIN.layers chained matmul + bias + ReLU of rows×width×width (a CTGAN hidden
 * layer's forward), recorded once and submitted as one command buffer per step. Forward only, so it times the kernel
 * and the dispatch, not a training step.
 */
function kernelChain(sizes: BenchSizes): BenchCase {
  const CHAIN = sizes.chain;
  return {
    name: 'layer_chain',
    what: `${CHAIN.layers}× matmul+bias+ReLU ${CHAIN.rows}×${CHAIN.width}×${CHAIN.width} (forward, one submit)`,
    torch: 'layer_chain',
    async prepare(gpu) {
      const rt = new GpuRuntime(gpu.device);
      const { rows, width, layers } = CHAIN;
      const acts: Tensor[] = [rt.tensor(values(rows * width, 1, 1)), rt.tensor(rows * width), rt.tensor(rows * width)];
      const program = new Program();
      for (let l = 0; l < layers; l++) {
        // He-scaled weights keep the activations finite through the chain.
        const w = rt.tensor(values(width * width, 100 + l, Math.sqrt(6 / width)));
        const bias = rt.tensor(values(width, 200 + l, 0.1));
        const a = l === 0 ? acts[0] : acts[1 + ((l - 1) % 2)];
        const c = acts[1 + (l % 2)];
        rt.matmul(program, { a, b: w, c, M: rows, N: width, K: width, epilogue: 'bias_act', extra: bias, activation: 'relu' });
      }
      return {
        submit: () => rt.run(program),
        readBack: () => rt.idle(),
        destroy: () => rt.destroy(),
      };
    },
  };
}

export const MLP = { batch: 1024, sizes: [100, 200, 200, 1], lr: 1e-3 } as const;

/**
 * The engine's MLP training step (GpuMlp, what AutoML's DeepLearning trains on a GPU worker) with torch_ref.py's
 * `mlp_step` shapes: batch 1024, 100-200-200-1, ReLU, BCE on logits, Adam(1e-3). Each step writes its batch, as a fit
 * does; the read back is the losses' ring (`takeLosses`).
 */
function mlpStep(sizes: BenchSizes): BenchCase {
  const MLP = sizes.mlp;
  return {
    name: 'mlp_step',
    what: `MLP step (batch ${MLP.batch}, ${MLP.sizes.join('-')}, ReLU, BCE, Adam)`,
    torch: 'mlp_step',
    async prepare(gpu) {
      const rt = new GpuRuntime(gpu.device);
      const sizes = [...MLP.sizes];
      const x = values(MLP.batch * sizes[0], 7, 1);
      // torch_ref's target: whether the first five features sum above zero.
      const y = Float32Array.from({ length: MLP.batch }, (_, r) => (x.subarray(r * sizes[0], r * sizes[0] + 5).reduce((a, b) => a + b, 0) > 0 ? 1 : 0));
      const weights = sizes.slice(0, -1).map((n, l) => values(n * sizes[l + 1], 300 + l, Math.sqrt(6 / (n + sizes[l + 1]))));
      const biases = sizes.slice(1).map((n) => new Float32Array(n));
      // The losses' ring holds more steps than measureStep replays before one read back.
      const mlp = new GpuMlp(rt, { sizes, activation: 'relu', loss: 'bce_logits' }, { weights, biases }, { lr: MLP.lr }, { batch: MLP.batch, lossEvery: 256 });
      return {
        submit: () => mlp.step(x, y),
        readBack: async () => {
          const losses = await mlp.takeLosses();
          return losses[losses.length - 1];
        },
        destroy: () => rt.destroy(),
      };
    },
  };
}

/**
 * diamonds.csv's row layout as CTGAN's transformer encodes it: 7 numeric columns (a scalar each, then a mode span of
 * up to 10 modes) and cut, color and clarity (one-hots of 5, 7 and 8). 97 values a row.
 */
export function diamondsLayout(): Layout {
  const nScalar = 7;
  const widths = [10, 10, 10, 10, 10, 10, 10, 5, 7, 8];
  const spans: Span[] = [];
  let offset = nScalar;
  let condOffset = 0;
  widths.forEach((width, k) => {
    const discrete = k >= 7;
    spans.push({ offset, width, column: k, discrete, condOffset: discrete ? condOffset : -1 });
    if (discrete) condOffset += width;
    offset += width;
  });
  return { dim: offset, nScalar, spans, groups: [], condDim: condOffset, discrete: spans.flatMap((s, i) => (s.discrete ? [i] : [])) };
}

/** Encoded rows for a layout: scalars in (-0.99, 0.99), one category hot in every span. */
export function encodedRows(layout: Layout, rows: number, seed: number): Float32Array {
  const out = new Float32Array(rows * layout.dim);
  const u = values(rows * (layout.nScalar + layout.spans.length), seed, 1);
  let j = 0;
  for (let r = 0; r < rows; r++) {
    const o = r * layout.dim;
    for (let c = 0; c < layout.nScalar; c++) out[o + c] = 0.99 * u[j++];
    for (const s of layout.spans) out[o + s.offset + Math.min(s.width - 1, Math.floor(((u[j++] + 1) / 2) * s.width))] = 1;
  }
  return out;
}

export const TVAE = { batch: 500, embedding: 128 } as const;

/**
 * The engine's TVAE training step (engine/gpu/neural/tvae.ts, what a use_gpu TVAE fit runs) on diamonds' layout:
 * batch 500, embedding 128, the 128-128 encoder and decoder, Adam. Each step gathers its rows and draws its noise on
 * the host, as a fit does; the read back is the step's loss.
 */
function tvaeStep(sizes: BenchSizes): BenchCase {
  const TVAE = sizes.tvae;
  return {
    name: 'tvae_step',
    what: `TVAE step (batch ${TVAE.batch}, 128-128, diamonds' 97-wide rows, Adam)`,
    torch: 'tvae_step',
    async prepare(gpu) {
      const rt = new GpuRuntime(gpu.device);
      const layout = diamondsLayout();
      // Twenty batches of rows, stepped through in turn as an epoch would.
      const batches = 20;
      const trainer = new GpuTvae(
        rt,
        layout,
        encodedRows(layout, TVAE.batch * batches, 11),
        TVAE.batch * batches,
        { epochs: 1, batch_size: TVAE.batch, embedding_dim: TVAE.embedding },
        new NeuralRng(1),
      );
      const rng = new NeuralRng(2);
      const order = Int32Array.from({ length: TVAE.batch * batches }, (_, i) => i);
      let step = 0;
      return {
        submit: () => trainer.submitStep(order.subarray((step % batches) * TVAE.batch, ((step++ % batches) + 1) * TVAE.batch), rng),
        readBack: () => trainer.lastLoss(),
        destroy: () => rt.destroy(),
      };
    },
  };
}

export const CTGAN = { batch: 500, embedding: 128, widths: [256, 256], pac: 10 } as const;

/**
 * The engine's CTGAN training step (engine/gpu/neural/ctgan.ts: one critic and one generator update, the gradient
 * penalty included, one command buffer) with torch_ref.py's `ctgan_step` sizes on diamonds' layout (conditional
 * vectors over cut, color and clarity). Random numbers drawn on the device, as fitNeuralGpu runs it (rows and
 * conditions still come from the host's stream).
 */
function ctganStep(sizes: BenchSizes): BenchCase {
  const CTGAN = sizes.ctgan;
  return {
    name: 'ctgan_step',
    what: `CTGAN step (batch ${CTGAN.batch}, G and D ${CTGAN.widths.join('-')}, penalty, Adam; device random numbers)`,
    torch: 'ctgan_step',
    async prepare(gpu) {
      const rt = new GpuRuntime(gpu.device);
      const layout = diamondsLayout();
      const rows = CTGAN.batch * 20;
      const config = { epochs: 1, batch_size: CTGAN.batch, embedding_dim: CTGAN.embedding, generator_dim: [...CTGAN.widths], discriminator_dim: [...CTGAN.widths], pac: CTGAN.pac };
      const trainer = new GpuCtgan(rt, layout, encodedRows(layout, rows, 12), rows, config, new NeuralRng(1), { random: 'device' });
      const rng = new NeuralRng(3);
      return {
        submit: () => trainer.step(rng),
        readBack: async () => (await trainer.readLosses()).loss_g,
        destroy: () => rt.destroy(),
      };
    },
  };
}

/** The shapes each case runs at: PyTorch's (torch_ref.py) for a GPU machine, or tiny ones for `run.sh --smoke`. */
export interface BenchSizes {
  chain: { rows: number; width: number; layers: number };
  mlp: { batch: number; sizes: readonly number[]; lr: number };
  tvae: { batch: number; embedding: number };
  ctgan: { batch: number; embedding: number; widths: readonly number[]; pac: number };
}

export const FULL_SIZES: BenchSizes = { chain: CHAIN, mlp: MLP, tvae: TVAE, ctgan: CTGAN };
/** A software renderer runs these in seconds: enough to show every case works end to end. */
export const SMOKE_SIZES: BenchSizes = {
  chain: { rows: 64, width: 32, layers: 2 },
  mlp: { batch: 64, sizes: [16, 32, 32, 1], lr: 1e-3 },
  tvae: { batch: 64, embedding: 16 },
  ctgan: { batch: 40, embedding: 16, widths: [32, 32], pac: 4 },
};

export const benchCases = (sizes: BenchSizes): BenchCase[] => [mlpStep(sizes), ctganStep(sizes), tvaeStep(sizes), kernelChain(sizes)];
