/**
 * The GPU fit against the CPU fit (fitNeuralCore on TF.js' cpu backend), same seed: the same progress lines (losses
 * within float tolerance), a model of the same format (its backend 'webgpu') that samples as a CPU one, checkpoints
 * that resume on either engine, cooperative cancel, and the CPU fallback for what a device cannot hold; CTGAN and
 * CopulaGAN through the same fit. Small: 120 rows, 2-4 epochs of a few batches, widths 8-16; on CI this runs on Mesa's
 * software renderer.
 */
import * as tf from '@tensorflow/tfjs';
import { fitNeuralCore } from '../../synth/neural/fit-core';
import { deserializeNeural, NeuralModel, serializeNeural } from '../../synth/neural/model';
import { checkpointEpoch } from '../../synth/neural/prepare';
import { sampleNeuralBatches } from '../../synth/neural/sample';
import { collect, mixedFrame } from '../../synth/neural/testutil';
import { fitTransformer } from '../../synth/neural/transformer';
import { acquireTestGpu } from '../test-device';
import type { AcquiredGpu } from '../test-device';
import { fitNeuralGpu, GpuFitUnsupported } from './fit';
import { tvaeGpuUnsupported } from './tvae';

const CONFIG = { epochs: 3, batch_size: 32, embedding_dim: 8, seed: 21 };

/** The losses of `epoch k/n: loss x` lines. */
const lossesOf = (lines: string[]) => lines.map((m) => Number(/loss (-?\d+\.\d+)$/.exec(m)?.[1]));

function expectSameWeights(a: NeuralModel, b: NeuralModel, tolerance: number): void {
  expect(Object.keys(a.params.weights)).toEqual(Object.keys(b.params.weights));
  for (const [name, t] of Object.entries(b.params.weights)) {
    expect(a.params.weights[name].shape).toEqual(t.shape);
    t.data.forEach((v, i) => expect(Math.abs(a.params.weights[name].data[i] - v)).toBeLessThan(tolerance * Math.max(1, Math.abs(v))));
  }
}

describe('the neural fit on the GPU engine', () => {
  let gpu: AcquiredGpu;
  const frame = mixedFrame(120, 6);
  beforeAll(async () => {
    await tf.setBackend('cpu');
    gpu = await acquireTestGpu();
  }, 60_000);
  afterAll(async () => {
    await gpu?.destroy();
  });

  it('trains TVAE as the CPU fit does, into a model of the same format that samples', async () => {
    const cpuLines: string[] = [];
    const gpuLines: string[] = [];
    const cpu = fitNeuralCore('tvae', frame, CONFIG, { onEpoch: (_e, _n, m) => cpuLines.push(m) });
    const model = await fitNeuralGpu('tvae', frame, CONFIG, { device: gpu.device, onEpoch: (_e, _n, m) => gpuLines.push(m) });
    expect(gpuLines.map((m) => m.split(':')[0])).toEqual(['epoch 1/3', 'epoch 2/3', 'epoch 3/3']);
    lossesOf(gpuLines).forEach((l, i) => expect(Math.abs(l - lossesOf(cpuLines)[i])).toBeLessThan(2e-3));
    expect(model.params.backend).toBe('webgpu');
    const { backend: _g, weights: _gw, ...gpuParams } = model.params;
    const { backend: _c, weights: _cw, ...cpuParams } = cpu.params;
    expect(gpuParams).toEqual(cpuParams);
    expect(model.columns).toEqual(cpu.columns);
    expectSameWeights(model, cpu, 1e-3);
    // Serialised, read back and sampled exactly as a CPU model.
    const back = deserializeNeural(serializeNeural(model));
    const rows = await collect(sampleNeuralBatches(back, 200, { seed: 2 }));
    expect(rows.nrows).toBe(200);
    expect(rows.names).toEqual(frame.names);
  }, 90_000);

  it('resumes a CPU checkpoint on the GPU and a GPU checkpoint on the CPU', async () => {
    const config = { ...CONFIG, epochs: 4 };
    const cpuCheckpoints: Uint8Array[] = [];
    const cpu = fitNeuralCore('tvae', frame, config, { checkpointEveryMs: 0, onCheckpoint: (b) => cpuCheckpoints.push(b) });
    expect(cpuCheckpoints.map(checkpointEpoch)).toEqual([1, 2, 3]);
    // From the CPU's epoch 2 on the GPU: epochs 3 and 4 only, ending near the uninterrupted CPU fit.
    const lines: string[] = [];
    const gpuCheckpoints: Uint8Array[] = [];
    const resumed = await fitNeuralGpu('tvae', frame, config, {
      device: gpu.device,
      resumeFrom: cpuCheckpoints[1],
      checkpointEveryMs: 0,
      onEpoch: (_e, _n, m) => lines.push(m),
      onCheckpoint: async (b) => {
        await Promise.resolve();
        gpuCheckpoints.push(b);
      },
    });
    expect(lines.map((m) => m.split(':')[0])).toEqual(['epoch 3/4', 'epoch 4/4']);
    expect(gpuCheckpoints.map(checkpointEpoch)).toEqual([3]);
    // A resumed fit's batch order starts afresh (the order is not in a checkpoint), so compare resumed with resumed.
    const cpuResumed = fitNeuralCore('tvae', frame, config, { resumeFrom: cpuCheckpoints[1] });
    expectSameWeights(resumed, cpuResumed, 1e-3);
    // The GPU's checkpoint of epoch 3 finishes on the CPU.
    const notes: string[] = [];
    const cpuLines: string[] = [];
    const back = fitNeuralCore('tvae', frame, config, { resumeFrom: gpuCheckpoints[0], onNote: (m) => notes.push(m), onEpoch: (_e, _n, m) => cpuLines.push(m) });
    expect(notes).toEqual([]);
    expect(cpuLines.map((m) => m.split(':')[0])).toEqual(['epoch 4/4']);
    expect(back.params.seed).toBe(cpu.params.seed);
    expect(back.params.backend).toBe(tf.getBackend());
  }, 90_000);

  it('trains CTGAN and CopulaGAN through the same fit: the CPU fit’s losses and a model of the same format', async () => {
    const gan = { epochs: 2, batch_size: 40, pac: 4, embedding_dim: 8, generator_dim: [16], discriminator_dim: [16], seed: 5 };
    for (const type of ['ctgan', 'copulagan'] as const) {
      const cpuLines: string[] = [];
      const gpuLines: string[] = [];
      const cpu = fitNeuralCore(type, frame, gan, { onEpoch: (_e, _n, m) => cpuLines.push(m) });
      const model = await fitNeuralGpu(type, frame, gan, { device: gpu.device, random: 'host', onEpoch: (_e, _n, m) => gpuLines.push(m) });
      const numbers = (m: string) => (m.match(/-?\d+\.\d+/g) ?? []).map(Number);
      expect(gpuLines.map((m) => m.split(':')[0])).toEqual(['epoch 1/2', 'epoch 2/2']);
      gpuLines.forEach((m, i) => numbers(m).forEach((v, k) => expect(Math.abs(v - numbers(cpuLines[i])[k])).toBeLessThan(1e-2)));
      expect(model.params.backend).toBe('webgpu');
      expect(model.params.discreteCounts).toEqual(cpu.params.discreteCounts);
      expect(model.params.marginals).toEqual(cpu.params.marginals);
      expectSameWeights(model, cpu, 1e-2);
      const rows = await collect(sampleNeuralBatches(deserializeNeural(serializeNeural(model)), 100, { seed: 2 }));
      expect(rows.nrows).toBe(100);
    }
  }, 120_000);

  it('stops at a cancel, sends what a device cannot hold to the CPU, and ignores a foreign checkpoint', async () => {
    const stop = new Error('cancelled');
    let steps = 0;
    await expect(
      fitNeuralGpu('tvae', frame, CONFIG, {
        device: gpu.device,
        checkCancel: () => {
          if (++steps === 3) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(steps).toBe(3);
    // What a device cannot hold goes back to the CPU, saying why (fitNeuralGpu rejects with GpuFitUnsupported).
    const small = { limits: { maxStorageBuffersPerShaderStage: 8, maxStorageBufferBindingSize: 1 << 16 } } as unknown as GPUDevice;
    const layout = fitTransformer(frame, 1).layout;
    expect(tvaeGpuUnsupported({ ...CONFIG, batch_size: 5000 }, layout, small)).toMatch(/^a TVAE buffer of \d+ bytes exceeds this GPU's storage binding limit \(65536 bytes\)$/);
    expect(tvaeGpuUnsupported(CONFIG, layout, gpu.device)).toBeNull();
    await expect(fitNeuralGpu('tvae', frame, { ...CONFIG, batch_size: 5000 }, { device: small })).rejects.toBeInstanceOf(GpuFitUnsupported);
    // A checkpoint of another table: noted, and the fit starts over.
    const foreign: Uint8Array[] = [];
    fitNeuralCore('tvae', mixedFrame(40, 1), { ...CONFIG, epochs: 2 }, { checkpointEveryMs: 0, onCheckpoint: (b) => foreign.push(b) });
    const seen: string[] = [];
    const lines: string[] = [];
    await fitNeuralGpu('tvae', frame, { ...CONFIG, epochs: 1 }, { device: gpu.device, resumeFrom: foreign[0], onNote: (m) => seen.push(m), onEpoch: (_e, _n, m) => lines.push(m) });
    expect(seen).toEqual(['checkpoint not usable (it belongs to another model, configuration or table); training from the start']);
    expect(lines.map((m) => m.split(':')[0])).toEqual(['epoch 1/1']);
  }, 90_000);
});
