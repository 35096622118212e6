/**
 * CTGAN and CopulaGAN on the GPU engine against the CPU trainer (engine/synth/neural/ctgan.ts on TF.js' cpu backend)
 * from the same seed: the same initial weights (exactly), the same random stream consumed, and the same losses, weights
 * and Adam moments after a few steps within float tolerance; checkpoints move between the engines. Small shapes
 * (80 rows, batches of 40 in 8 pac groups of 5, widths 16-24), so it runs in seconds on Mesa's software renderer.
 *
 * Tolerance: the engines add in different orders in float32 (tiled products, one-workgroup reductions, two-pass batch
 * statistics against the CPU's one-pass float64 ones), about 1e-7 relative per op; measured here after 4 steps: losses
 * within 1.3e-6, weights within 2e-8 and Adam moments within 7e-7 (relative to max(1, |value|)). The tests allow 1e-5
 * for both. One exception: the generator's biases before a batch normalisation have a true gradient of 0 (the
 * normalisation subtracts the column mean), so each engine's is float noise of its own summation order, and Adam, which
 * divides a gradient by its own RMS, moves such a weight by up to lr (2e-4) a step whatever the noise: those are
 * compared within lr per step (measured: up to 4e-5). They do not affect anything downstream.
 */
import * as tf from '@tensorflow/tfjs';
import { fitCopulaMarginals, toNormalScores } from '../../synth/neural/copulagan';
import { CTGAN_ADAM, CtganTrainer, GP_LAMBDA } from '../../synth/neural/ctgan';
import { FUSED_BN_EPS } from '../../synth/neural/fused';
import { GUMBEL_TAU } from '../../synth/neural/span-ops';
import { NeuralRng } from '../../synth/neural/rng';
import { mixedFrame } from '../../synth/neural/testutil';
import { encodeFrame, fitTransformer, Layout } from '../../synth/neural/transformer';
import type { Frame } from '../../automl';
import { makeFrame } from '../../automl';
import type { CtganConfig } from '../../synth/types';
import { GpuRuntime } from '../runtime';
import { acquireTestGpu } from '../test-device';
import type { AcquiredGpu } from '../test-device';
import { ctganGpuUnsupported, GpuCtgan } from './ctgan';
import { GPU_CTGAN_CONSTANTS } from './ctgan-constants';
import type { TensorData } from './trainer';

const ROWS = 80;
const CONFIG: CtganConfig = { epochs: 1, batch_size: 40, pac: 5, embedding_dim: 16, generator_dim: [24, 20], discriminator_dim: [24, 16] };
const LOSS_TOLERANCE = 1e-5;
const STATE_TOLERANCE = 1e-5;
/** Adam's lr: the most a weight with a noise-sized gradient can drift a step (see the file comment). */
const NOISE_GRADIENT_DRIFT = 2e-4;
const PRE_NORM_BIAS = /^G\/g\d+\.b$/;

/** The worst |gpu − cpu| / max(1, |cpu|) per tensor name. */
function worstDifferences(gpu: Record<string, TensorData>, cpu: Record<string, TensorData>): Record<string, number> {
  expect(Object.keys(gpu).sort()).toEqual(Object.keys(cpu).sort());
  const out: Record<string, number> = {};
  for (const [name, t] of Object.entries(cpu)) {
    expect(gpu[name].shape).toEqual(t.shape);
    let worst = 0;
    t.data.forEach((v, i) => (worst = Math.max(worst, Math.abs(gpu[name].data[i] - v) / Math.max(1, Math.abs(v)))));
    out[name] = worst;
  }
  return out;
}

function expectClose(gpu: Record<string, TensorData>, cpu: Record<string, TensorData>, tolerance: number | ((name: string) => number)): void {
  for (const [name, worst] of Object.entries(worstDifferences(gpu, cpu))) {
    const allowed = typeof tolerance === 'number' ? tolerance : tolerance(name);
    if (!(worst <= allowed)) throw new Error(`${name} differs by ${worst} (tolerance ${allowed})`);
  }
}

interface Pair {
  cpu: CtganTrainer;
  gpu: GpuCtgan;
  layout: Layout;
}

describe('CTGAN on the GPU engine', () => {
  let gpu: AcquiredGpu;
  let rt: GpuRuntime;
  const cpuTrainers: CtganTrainer[] = [];

  /** Both trainers on the same encoded table, each with its own copy of one seed. */
  function pair(frame: Frame, config = CONFIG): Pair {
    const state = fitTransformer(frame, 1);
    const encoded = encodeFrame(state, frame, new NeuralRng(9));
    const cpu = new CtganTrainer(state.layout, encoded, frame.nrows, config, new NeuralRng(5));
    cpuTrainers.push(cpu);
    return { cpu, gpu: new GpuCtgan(rt, state.layout, encoded, frame.nrows, config, new NeuralRng(5)), layout: state.layout };
  }

  /** `steps` steps on both engines from one stream each; every step's losses compared, then all state. */
  async function compareSteps(p: Pair, steps: number): Promise<void> {
    const cpuRng = new NeuralRng(7);
    const gpuRng = new NeuralRng(7);
    const initial = p.cpu.readState().tensors;
    for (let s = 0; s < steps; s++) {
      const scalars = p.cpu.step(cpuRng);
      const [lossG, lossD, penalty] = scalars.map((t) => t.dataSync()[0]);
      scalars.forEach((t) => t.dispose());
      p.gpu.step(gpuRng);
      const got = await p.gpu.readLosses();
      // The same random numbers, in the same order: the streams stay in step.
      expect(gpuRng.state).toBe(cpuRng.state);
      expect(Math.abs(got.loss_g - lossG)).toBeLessThan(LOSS_TOLERANCE);
      expect(Math.abs(got.loss_d - lossD)).toBeLessThan(LOSS_TOLERANCE);
      expect(Math.abs(got.penalty - penalty)).toBeLessThan(LOSS_TOLERANCE * Math.max(1, penalty));
      expect(penalty).toBeGreaterThan(0);
    }
    const want = p.cpu.readState();
    const have = await p.gpu.readState();
    expect(have.steps).toEqual(want.steps);
    expectClose(have.tensors, want.tensors, (name) => (PRE_NORM_BIAS.test(name) ? NOISE_GRADIENT_DRIFT * steps : STATE_TOLERANCE));
    // Every parameter moved: the comparison is of trained weights, not of two untouched copies.
    for (const name of Object.keys(initial)) {
      if (/^[GD]\//.test(name)) expect(worstDifferences({ x: have.tensors[name] }, { x: initial[name] }).x).toBeGreaterThan(1e-5);
    }
  }

  beforeAll(async () => {
    await tf.setBackend('cpu');
    gpu = await acquireTestGpu();
    rt = new GpuRuntime(gpu.device);
  });
  afterAll(async () => {
    cpuTrainers.forEach((t) => t.dispose());
    await rt?.destroy();
    await gpu?.destroy();
  });

  it("uses the CPU trainer's constants", () => {
    expect(GPU_CTGAN_CONSTANTS.adam).toEqual(CTGAN_ADAM);
    expect([GPU_CTGAN_CONSTANTS.gpLambda, GPU_CTGAN_CONSTANTS.bnEps, GPU_CTGAN_CONSTANTS.gumbelTau]).toEqual([GP_LAMBDA, FUSED_BN_EPS, GUMBEL_TAU]);
  });

  it('starts from the CPU trainer weights for the same seed, exactly, with the same names and shapes', async () => {
    const p = pair(mixedFrame(ROWS, 1));
    const want = p.cpu.readState();
    const have = await p.gpu.readState();
    expect(have.steps).toEqual({ g: 0, d: 0 });
    expect(worstDifferences(have.tensors, want.tensors)).toEqual(Object.fromEntries(Object.keys(want.tensors).map((k) => [k, 0])));
    expect(await p.gpu.modelWeights()).toEqual(p.cpu.generatorWeights());
    expect(p.gpu.stepsPerEpoch).toBe(p.cpu.stepsPerEpoch);
    expect(p.gpu.sampler.counts()).toEqual(p.cpu.sampler.counts());
  });

  it('takes 4 steps like the CPU trainer: losses, weights and Adam moments', async () => {
    await compareSteps(pair(mixedFrame(ROWS, 1)), 4);
  });

  it('trains a table without discrete columns (no conditional vector) like the CPU trainer', async () => {
    const mixed = mixedFrame(ROWS, 2);
    const numeric = makeFrame(mixed.names.slice(0, 3), mixed.columns.slice(0, 3));
    const p = pair(numeric);
    expect(p.layout.condDim).toBe(0);
    await compareSteps(p, 3);
  });

  it('trains CopulaGAN (CTGAN on normal scores) like the CPU trainer for 2 steps', async () => {
    const frame = mixedFrame(ROWS, 3);
    await compareSteps(pair(toNormalScores(frame, fitCopulaMarginals(frame))), 2);
  });

  it('moves checkpoints between the engines and continues identically', async () => {
    const p = pair(mixedFrame(ROWS, 1));
    const rng = new NeuralRng(21);
    const cpuRng = new NeuralRng(21);
    for (let s = 0; s < 2; s++) {
      p.cpu.step(cpuRng).forEach((t) => t.dispose());
      p.gpu.step(rng);
    }
    // The GPU's state into a fresh CPU trainer and the CPU's into a fresh GPU trainer: both continue as their source.
    const gpuState = await p.gpu.readState();
    const other = pair(mixedFrame(ROWS, 1));
    other.cpu.writeState(gpuState.tensors, gpuState.steps);
    other.gpu.writeState(p.cpu.readState().tensors, p.cpu.readState().steps);
    expectClose((await other.gpu.readState()).tensors, p.cpu.readState().tensors, 0);
    expectClose(other.cpu.readState().tensors, gpuState.tensors, 0);
    // The CPU's checkpoint continued on the GPU takes the step the CPU takes next.
    const [cpuNext, gpuNext] = [new NeuralRng(1), new NeuralRng(1)];
    cpuNext.state = gpuNext.state = cpuRng.state;
    const want = p.cpu.step(cpuNext).map((t) => t.dataSync()[0]);
    other.gpu.step(gpuNext);
    const got = await other.gpu.readLosses();
    [got.loss_g, got.loss_d, got.penalty].forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(LOSS_TOLERANCE * Math.max(1, Math.abs(want[i]))));
    expect(() => other.gpu.writeState({}, { g: 2, d: 2 })).toThrow(/missing or has another shape/);
  });

  it('runs an epoch (one readback), calls checkCancel before every step and stops when it throws', async () => {
    const p = pair(mixedFrame(ROWS, 1));
    let calls = 0;
    const losses = await p.gpu.epoch(new NeuralRng(3), () => calls++);
    expect(calls).toBe(p.gpu.stepsPerEpoch);
    expect(Number.isFinite(losses.loss_g) && Number.isFinite(losses.loss_d) && losses.penalty > 0).toBe(true);
    await expect(
      p.gpu.epoch(new NeuralRng(3), () => {
        throw new Error('cancelled');
      }),
    ).rejects.toThrow('cancelled');
    expect((await p.gpu.readState()).steps).toEqual({ g: 2, d: 2 });
  });

  it("trains with the on-GPU random numbers ('device' mode): reproducible for a seed, its own stream of numbers", async () => {
    const frame = mixedFrame(ROWS, 1);
    const state = fitTransformer(frame, 1);
    const encoded = encodeFrame(state, frame, new NeuralRng(9));
    const run = async (random: 'host' | 'device') => {
      const t = new GpuCtgan(rt, state.layout, encoded, frame.nrows, CONFIG, new NeuralRng(5), { random });
      const rng = new NeuralRng(7);
      const losses = [];
      for (let e = 0; e < 2; e++) losses.push(await t.epoch(rng, () => {}));
      return { losses, weights: await t.modelWeights(), rngState: rng.state };
    };
    const [a, b, host] = [await run('device'), await run('device'), await run('host')];
    expect(b).toEqual(a);
    a.losses.forEach((l) => expect(Number.isFinite(l.loss_g) && Number.isFinite(l.loss_d) && l.penalty > 0).toBe(true));
    // Other noise than the host stream's, and far fewer numbers drawn on the host (conditions and rows only).
    expect(a.losses[1].loss_d).not.toBe(host.losses[1].loss_d);
    expect(a.rngState).not.toBe(host.rngState);
    // A checkpoint after epoch 1 resumed in a fresh trainer (same seed: same key; the step count restored) ends where
    // the uninterrupted run does.
    const first = new GpuCtgan(rt, state.layout, encoded, frame.nrows, CONFIG, new NeuralRng(5), { random: 'device' });
    const rng = new NeuralRng(7);
    await first.epoch(rng, () => {});
    const checkpoint = await first.readState();
    const resumed = new GpuCtgan(rt, state.layout, encoded, frame.nrows, CONFIG, new NeuralRng(5), { random: 'device' });
    resumed.writeState(checkpoint.tensors, checkpoint.steps);
    const resumedRng = new NeuralRng(0);
    resumedRng.state = rng.state;
    expect(await resumed.epoch(resumedRng, () => {})).toEqual(a.losses[1]);
    expect(await resumed.modelWeights()).toEqual(a.weights);
  });

  it('says when a configuration does not fit the device', () => {
    const layout = pair(mixedFrame(ROWS, 1)).layout;
    expect(ctganGpuUnsupported(CONFIG, layout, gpu.device)).toBeNull();
    expect(ctganGpuUnsupported({ ...CONFIG, batch_size: 100_000, generator_dim: [4096, 4096, 4096, 4096] }, layout, gpu.device)).toMatch(/exceeds this GPU's storage binding limit/);
  });
});
