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
const kernelChain: BenchCase = {
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

export const MLP = { batch: 1024, sizes: [100, 200, 200, 1], lr: 1e-3 } as const;

/**
 * The engine's MLP training step (GpuMlp, what AutoML's DeepLearning trains on a GPU worker) with torch_ref.py's
 * `mlp_step` shapes: batch 1024, 100-200-200-1, ReLU, BCE on logits, Adam(1e-3). Each step writes its batch, as a fit
 * does; the read back is the losses' ring (`takeLosses`).
 */
const mlpStep: BenchCase = {
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

const notYet = (name: string, what: string, torch: string): BenchCase => ({
  name,
  what,
  torch,
  prepare: async () => ({ notYet: `not yet: engine/gpu has no ${name.replace('_step', '')} step` }),
});

export const CASES: BenchCase[] = [
  mlpStep,
  notYet('ctgan_step', 'CTGAN step (batch 500, G and D 256-256, Adam)', 'ctgan_step'),
  notYet('tvae_step', 'TVAE step (batch 500, 128-128, Adam)', 'tvae_step'),
  kernelChain,
];
