/**
 * TVAE on the GPU engine against the CPU trainer (engine/synth/neural/tvae.ts on TF.js' cpu backend) from the same
 * seed: the same losses and the same weights and Adam moments after a few steps, within float tolerance; checkpoints
 * move between the engines. Small: 60 rows of the mixed test table, batches of 16 (three full steps and a short one
 * an epoch), embedding 8; on CI this runs on Mesa's software renderer.
 */
import * as tf from '@tensorflow/tfjs';
import { NeuralRng } from '../../synth/neural/rng';
import { mixedFrame } from '../../synth/neural/testutil';
import { encodeFrame, fitTransformer, TransformerState } from '../../synth/neural/transformer';
import { TvaeTrainer } from '../../synth/neural/tvae';
import type { TvaeConfig } from '../../synth/types';
import { GpuRuntime } from '../runtime';
import { acquireTestGpu } from '../test-device';
import type { AcquiredGpu } from '../test-device';
import type { TensorData } from './trainer';
import { GpuTvae } from './tvae';

const ROWS = 60;
const CONFIG: TvaeConfig = { epochs: 2, batch_size: 16, embedding_dim: 8 };

function expectClose(gpu: Record<string, TensorData>, cpu: Record<string, TensorData>, tolerance: number): void {
  expect(Object.keys(gpu)).toEqual(Object.keys(cpu));
  for (const [name, t] of Object.entries(cpu)) {
    expect(gpu[name].shape).toEqual(t.shape);
    let worst = 0;
    t.data.forEach((v, i) => (worst = Math.max(worst, Math.abs(gpu[name].data[i] - v) / Math.max(1, Math.abs(v)))));
    if (worst > tolerance) throw new Error(`${name} differs by ${worst} (tolerance ${tolerance})`);
  }
}

describe('TVAE on the GPU engine', () => {
  let gpu: AcquiredGpu;
  let transformer: TransformerState;
  let encoded: Float32Array;
  beforeAll(async () => {
    await tf.setBackend('cpu');
    gpu = await acquireTestGpu();
    const frame = mixedFrame(ROWS, 3);
    transformer = fitTransformer(frame, 11);
    encoded = encodeFrame(transformer, frame, new NeuralRng(12));
  }, 60_000);
  afterAll(async () => {
    await gpu?.destroy();
  });

  it('takes the CPU trainer’s steps: equal losses, weights and Adam moments after each epoch', async () => {
    const { layout } = transformer;
    expect(layout.nScalar).toBeGreaterThan(0);
    expect(layout.spans.length).toBeGreaterThan(0);
    const cpuRng = new NeuralRng(5);
    const gpuRng = new NeuralRng(5);
    const cpu = new TvaeTrainer(layout, encoded, ROWS, CONFIG, cpuRng);
    const rt = new GpuRuntime(gpu.device);
    const trainer = new GpuTvae(rt, layout, encoded, ROWS, CONFIG, gpuRng);
    try {
      expect(trainer.stepsPerEpoch).toBe(cpu.stepsPerEpoch);
      expectClose((await trainer.readState()).tensors, cpu.readState().tensors, 0);
      for (let e = 0; e < 2; e++) {
        const c = cpu.epoch(cpuRng, () => {});
        const g = await trainer.epoch(gpuRng, () => {});
        expect(Number.isFinite(g.loss)).toBe(true);
        expect(Math.abs(g.loss - c.loss) / Math.max(1, Math.abs(c.loss))).toBeLessThan(1e-4);
        expect(gpuRng.state).toBe(cpuRng.state);
        const [gs, cs] = [await trainer.readState(), cpu.readState()];
        expect(gs.steps).toBe(cs.steps);
        expectClose(gs.tensors, cs.tensors, 1e-4);
      }
      expectClose(await trainer.modelWeights(), cpu.decoderWeights(), 1e-4);
      // The output scales were clamped into [0.01, 1] after every step, as on the CPU.
      (await trainer.modelWeights()).sigma.data.forEach((s) => expect(s).toBeGreaterThanOrEqual(0.01));
    } finally {
      cpu.dispose();
      trainer.dispose();
      await rt.destroy();
    }
  }, 60_000);

  it('resumes from a CPU checkpoint and stops when cancelled before a step', async () => {
    const { layout } = transformer;
    const cpuRng = new NeuralRng(9);
    const first = new TvaeTrainer(layout, encoded, ROWS, CONFIG, cpuRng);
    first.epoch(cpuRng, () => {});
    const saved = first.readState();
    first.dispose();
    // Both engines resume from the checkpoint into fresh trainers (the row order starts afresh, as in a resumed fit).
    const cpu = new TvaeTrainer(layout, encoded, ROWS, CONFIG, new NeuralRng(1));
    cpu.writeState(saved.tensors, saved.steps);
    const rt = new GpuRuntime(gpu.device);
    const trainer = new GpuTvae(rt, layout, encoded, ROWS, CONFIG, new NeuralRng(1));
    try {
      trainer.writeState(saved.tensors, saved.steps);
      const gpuRng = new NeuralRng(0);
      gpuRng.state = cpuRng.state;
      const c = cpu.epoch(cpuRng, () => {});
      const g = await trainer.epoch(gpuRng, () => {});
      expect(Math.abs(g.loss - c.loss) / Math.max(1, Math.abs(c.loss))).toBeLessThan(1e-4);
      expectClose((await trainer.readState()).tensors, cpu.readState().tensors, 1e-4);
      expect(() => trainer.writeState({ ...saved.tensors, 'N/mu.w': { shape: [1], data: new Float32Array(1) } }, 1)).toThrow(/mu.w/);
      let calls = 0;
      const stop = new Error('cancelled');
      await expect(
        trainer.epoch(gpuRng, () => {
          if (++calls === 2) throw stop;
        }),
      ).rejects.toBe(stop);
    } finally {
      cpu.dispose();
      trainer.dispose();
      await rt.destroy();
    }
  }, 60_000);
});
