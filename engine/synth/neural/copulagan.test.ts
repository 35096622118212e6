import { Frame, initDeepLearningBackend } from '../../automl';
import { fitCopulaMarginals, fromNormalScores, toNormalScores } from './copulagan';
import { fitNeuralCore } from './fit-core';
import { NeuralModel } from './model';
import { sampleNeuralBatches } from './sample';
import { collect, missingShare, mixedFrame } from './testutil';

describe('CopulaGAN', () => {
  let frame: Frame;
  beforeAll(async () => {
    await initDeepLearningBackend();
    frame = mixedFrame(300, 3);
  });

  it('maps numeric columns to normal scores and back through their marginals', () => {
    const marginals = fitCopulaMarginals(frame);
    // The copula's marginals: KS picks a family per column (the bimodal and few-valued columns keep their empirical
    // shape; the datetimes, spread evenly, are uniform); categoricals have none.
    expect(marginals.map((m) => (m ? m.family : null))).toEqual(['empirical', 'empirical', 'uniform', null, null]);
    const scores = toNormalScores(frame, marginals);
    const age = frame.columns[0];
    const z = scores.columns[0];
    if (age.kind !== 'numeric' || z.kind !== 'numeric') throw new Error('kinds');
    const present = Array.from(z.values).filter((v) => !Number.isNaN(v));
    const mean = present.reduce((s, v) => s + v, 0) / present.length;
    const sd = Math.sqrt(present.reduce((s, v) => s + (v - mean) ** 2, 0) / present.length);
    // Normal scores of a continuous column are standard normal whatever its shape (here bimodal).
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(sd - 1)).toBeLessThan(0.1);
    const back = fromNormalScores(Float64Array.from(z.values), marginals[0]!);
    age.values.forEach((v, i) => (Number.isNaN(v) ? expect(back[i]).toBeNaN() : expect(Math.abs(back[i] - v)).toBeLessThan(1e-3 * Math.max(1, Math.abs(v)))));
  });

  it('trains CTGAN on the normal scores and samples in the original units', async () => {
    const model = fitNeuralCore('copulagan', frame, { epochs: 4, batch_size: 100, pac: 5, embedding_dim: 16, generator_dim: [32], discriminator_dim: [32], seed: 2 }) as NeuralModel;
    expect(model.params.marginals?.filter((m) => m !== null)).toHaveLength(3);
    const s = await collect(sampleNeuralBatches(model, 400, { seed: 4 }));
    const age = s.columns[0];
    const count = s.columns[1];
    if (age.kind !== 'numeric' || count.kind !== 'numeric') throw new Error('kinds');
    const ages = Array.from(age.values).filter((v) => !Number.isNaN(v));
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(model.columns[0].min as number);
    expect(Math.max(...ages)).toBeLessThanOrEqual(model.columns[0].max as number);
    // The marginal maps scores back to ages, not to normal scores.
    expect(ages.reduce((a, v) => a + v, 0) / ages.length).toBeGreaterThan(20);
    count.values.forEach((v) => expect(Number.isInteger(v) && v >= 0 && v <= 5).toBe(true));
    expect(Math.abs(missingShare(s, 'age') - missingShare(frame, 'age'))).toBeLessThan(0.06);
  });
});
