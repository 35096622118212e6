import * as tf from '@tensorflow/tfjs';
import { Frame, initDeepLearningBackend } from '../../automl';
import type { SynthesizerModel } from '../types';
import { SynthConditionError } from './conditions';
import { NeuralConfigError, resolveCtganConfig } from './config';
import { CtganTrainer, gradientPenalty } from './ctgan';
import { fitNeuralCore } from './fit-core';
import { fitNeural } from './fit-neural';
import { deserializeNeural, serializeNeural } from './model';
import { NeuralRng } from './rng';
import { sampleNeuralBatches } from './sample';
import { collect, missingShare, mixedFrame } from './testutil';
import { encodeFrame, fitTransformer } from './transformer';

const SMALL = { epochs: 8, batch_size: 100, pac: 5, embedding_dim: 16, generator_dim: [32, 32], discriminator_dim: [32, 32], seed: 3 };

function column(frame: Frame, name: string) {
  return frame.columns[frame.names.indexOf(name)];
}

describe('CTGAN', () => {
  let frame: Frame;
  let model: SynthesizerModel;
  const messages: string[] = [];
  beforeAll(async () => {
    await initDeepLearningBackend();
    frame = mixedFrame(400, 1);
    model = fitNeuralCore('ctgan', frame, SMALL, { onEpoch: (_e, _n, m) => messages.push(m) });
  }, 120_000);

  it('trains epoch by epoch and samples the right kinds, ranges, whole numbers and missing rates', async () => {
    expect(messages).toHaveLength(8);
    expect(messages[0]).toMatch(/^epoch 1\/8: loss_g -?\d+\.\d+, loss_d -?\d+\.\d+, penalty \d+\.\d+$/);
    const s = await collect(sampleNeuralBatches(model, 1000, { seed: 5, batchRows: 300 }));
    expect(s.nrows).toBe(1000);
    expect(s.names).toEqual(frame.names);
    expect(s.columns.map((c) => c.kind)).toEqual(['numeric', 'numeric', 'datetime', 'categorical', 'categorical']);
    const meta = model.columns;
    const count = column(s, 'count');
    if (count.kind !== 'numeric') throw new Error('count is numeric');
    count.values.forEach((v) => {
      expect(Number.isInteger(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(5);
    });
    const age = column(s, 'age');
    if (age.kind !== 'numeric') throw new Error('age is numeric');
    age.values.forEach((v) => Number.isNaN(v) || expect(v >= (meta[0].min as number) && v <= (meta[0].max as number)).toBe(true));
    const when = column(s, 'when');
    if (when.kind !== 'datetime') throw new Error('when is datetime');
    when.epochMs.forEach((v) => expect(v >= (meta[2].min as number) && v <= (meta[2].max as number) && Number.isInteger(v)).toBe(true));
    // Missing cells come back at the training rates, and only where the training data had them.
    expect(Math.abs(missingShare(s, 'age') - missingShare(frame, 'age'))).toBeLessThan(0.05);
    expect(Math.abs(missingShare(s, 'color') - missingShare(frame, 'color'))).toBeLessThan(0.05);
    expect(missingShare(s, 'count')).toBe(0);
    expect(missingShare(s, 'flag')).toBe(0);
    const color = column(s, 'color');
    if (color.kind !== 'categorical') throw new Error('color is categorical');
    expect(
      new Set(
        Array.from(
          color.codes.filter((c) => c >= 0),
          (c) => color.levels[c],
        ),
      ),
    ).toEqual(new Set(['blue', 'green', 'red']));
  });

  it('reproduces samples for a seed, also after serialization', async () => {
    const a = await collect(sampleNeuralBatches(model, 250, { seed: 11, batchRows: 100 }));
    const b = await collect(sampleNeuralBatches(model, 250, { seed: 11, batchRows: 100 }));
    const restored = deserializeNeural(serializeNeural(model));
    const c = await collect(sampleNeuralBatches(restored, 250, { seed: 11, batchRows: 100 }));
    const d = await collect(sampleNeuralBatches(model, 250, { seed: 12, batchRows: 100 }));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(d).not.toEqual(a);
  });

  it('honours conditions exactly, through the conditional vector and by rejection', async () => {
    const s = await collect(sampleNeuralBatches(model, 200, { seed: 2, conditions: { color: 'green', flag: 'yes', count: 3 } }));
    const color = column(s, 'color');
    const flag = column(s, 'flag');
    const count = column(s, 'count');
    if (color.kind !== 'categorical' || flag.kind !== 'categorical' || count.kind !== 'numeric') throw new Error('kinds');
    expect(s.nrows).toBe(200);
    color.codes.forEach((c) => expect(color.levels[c]).toBe('green'));
    flag.codes.forEach((c) => expect(flag.levels[c]).toBe('yes'));
    count.values.forEach((v) => expect(v).toBe(3));
    const when = await collect(sampleNeuralBatches(model, 20, { seed: 2, conditions: { when: '2020-03-01T00:00:00Z' } }));
    const w = column(when, 'when');
    if (w.kind !== 'datetime') throw new Error('when is datetime');
    w.epochMs.forEach((v) => expect(v).toBe(Date.UTC(2020, 2, 1)));
  });

  it('rejects conditions that cannot be met with a SynthConditionError', async () => {
    const attempt = (conditions: Record<string, string | number | boolean>) => collect(sampleNeuralBatches(model, 10, { seed: 1, conditions }));
    await expect(attempt({ nope: 1 })).rejects.toThrow(new SynthConditionError('unknown column "nope" in conditions'));
    await expect(attempt({ color: 'purple' })).rejects.toThrow(/no category "purple"/);
    await expect(attempt({ count: 99 })).rejects.toThrow(/outside its training range \[0, 5\]/);
    await expect(attempt({ count: 2.5 })).rejects.toThrow(/whole numbers only/);
    await expect(attempt({ age: 'old' })).rejects.toBeInstanceOf(SynthConditionError);
  });

  it('requires pac to divide batch_size', async () => {
    expect(() => resolveCtganConfig({ batch_size: 500, pac: 7 })).toThrow(new NeuralConfigError('pac (7) must divide batch_size (500)'));
    await expect(fitNeural('ctgan', frame, { batch_size: 100, pac: 3 })).rejects.toThrow('pac (3) must divide batch_size (100)');
    await expect(fitNeural('copulagan', frame, { pac: 7 })).rejects.toBeInstanceOf(NeuralConfigError);
    expect(() => resolveCtganConfig({ epochs: 0 })).toThrow('epochs must be an integer between 1 and 10000');
  });

  it('computes a finite, non-zero gradient penalty whose weight gradient matches finite differences', () => {
    const state = fitTransformer(frame, 1);
    const trainer = new CtganTrainer(state.layout, encodeFrame(state, frame, new NeuralRng(1)), frame.nrows, resolveCtganConfig(SMALL), new NeuralRng(2));
    try {
      const width = (state.layout.dim + state.layout.condDim) * SMALL.pac;
      const interp = tf.randomNormal([20, width], 0, 1, 'float32', 9) as tf.Tensor2D;
      const w = (n: string) => trainer.d.get(n);
      const pen = () => gradientPenalty(w, 2, interp, new NeuralRng(77));
      const value = tf.tidy(() => pen().dataSync()[0]);
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
      // The penalty's gradient with respect to the critic's weights (a gradient of a gradient).
      const out = trainer.d.get('dout.w');
      const analytic = tf.tidy(() => tf.variableGrads(pen, [out]).grads[out.name].dataSync().slice());
      expect(analytic.every(Number.isFinite)).toBe(true);
      expect(analytic.some((g) => g !== 0)).toBe(true);
      // Central differences on a few output weights (the penalty is smooth in them: the activations do not move).
      const base = out.dataSync().slice();
      const h = 1e-2;
      for (const i of [0, 5, 17]) {
        const at = (delta: number) => {
          const v = base.slice();
          v[i] += delta;
          out.assign(tf.tensor(v, out.shape));
          return tf.tidy(() => pen().dataSync()[0]);
        };
        const numeric = (at(h) - at(-h)) / (2 * h);
        out.assign(tf.tensor(base, out.shape));
        expect(Math.abs(numeric - analytic[i])).toBeLessThan(2e-2 * Math.max(1, Math.abs(analytic[i])));
      }
      interp.dispose();
    } finally {
      trainer.dispose();
    }
  });
});
