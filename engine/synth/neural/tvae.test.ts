import { Frame, initDeepLearningBackend } from '../../automl';
import type { SynthesizerModel } from '../types';
import { fitNeuralCore } from './fit-core';
import { deserializeNeural, serializeNeural } from './model';
import { sampleNeuralBatches } from './sample';
import { collect, missingShare, mixedFrame } from './testutil';

describe('TVAE', () => {
  let frame: Frame;
  let model: SynthesizerModel;
  const messages: string[] = [];
  beforeAll(async () => {
    await initDeepLearningBackend();
    frame = mixedFrame(400, 2);
    model = fitNeuralCore('tvae', frame, { epochs: 10, batch_size: 100, embedding_dim: 16, seed: 4 }, { onEpoch: (_e, _n, m) => messages.push(m) });
  }, 120_000);

  it('trains epoch by epoch and samples the right kinds, ranges, whole numbers and missing rates', async () => {
    expect(messages.map((m) => m.split(':')[0])).toEqual(Array.from({ length: 10 }, (_, i) => `epoch ${i + 1}/10`));
    expect(messages[9]).toMatch(/^epoch 10\/10: loss \d+\.\d+$/);
    // The loss falls as the auto-encoder learns.
    expect(Number(messages[9].split('loss ')[1])).toBeLessThan(Number(messages[0].split('loss ')[1]));
    const s = await collect(sampleNeuralBatches(model, 800, { seed: 1, batchRows: 500 }));
    expect(s.nrows).toBe(800);
    expect(s.columns.map((c) => c.kind)).toEqual(['numeric', 'numeric', 'datetime', 'categorical', 'categorical']);
    s.columns.forEach((c, j) => {
      const meta = model.columns[j];
      if (c.kind === 'categorical') return;
      const values = c.kind === 'numeric' ? c.values : c.epochMs;
      values.forEach((v) => {
        if (Number.isNaN(v)) return;
        expect(v).toBeGreaterThanOrEqual(meta.min as number);
        expect(v).toBeLessThanOrEqual(meta.max as number);
        if (meta.integer) expect(Number.isInteger(v)).toBe(true);
      });
    });
    expect(Math.abs(missingShare(s, 'age') - missingShare(frame, 'age'))).toBeLessThan(0.05);
    expect(Math.abs(missingShare(s, 'color') - missingShare(frame, 'color'))).toBeLessThan(0.05);
    expect(missingShare(s, 'when')).toBe(0);
  });

  it('reproduces samples for a seed and honours conditions by rejection', async () => {
    const a = await collect(sampleNeuralBatches(model, 300, { seed: 8, batchRows: 128 }));
    const b = await collect(sampleNeuralBatches(deserializeNeural(serializeNeural(model)), 300, { seed: 8, batchRows: 128 }));
    expect(b).toEqual(a);
    const s = await collect(sampleNeuralBatches(model, 50, { seed: 3, conditions: { flag: 'no', count: 1 } }));
    const flag = s.columns[4];
    const count = s.columns[1];
    if (flag.kind !== 'categorical' || count.kind !== 'numeric') throw new Error('kinds');
    flag.codes.forEach((c) => expect(flag.levels[c]).toBe('no'));
    count.values.forEach((v) => expect(v).toBe(1));
  });
});
