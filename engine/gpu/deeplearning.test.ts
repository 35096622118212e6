/**
 * The DeepLearning MLP trained on the GPU engine and on the CPU engine (TF.js) from the same seed: the same per-epoch
 * losses within float tolerance, and a model that exports to ONNX exactly as a CPU-trained one. Small: banknote
 * (1,372 rows, 4 features), hidden 16-16, 2 epochs; on CI this runs on Mesa's software renderer.
 */
import { loadDataset } from '../automl/glm/testdata';
import { designFeeds } from '../automl/encoding/feeds';
import { runOnnx } from '../automl/onnx/ort-runner';
import { exportDeepLearningOnnx, trainDeepLearning } from '../automl/deeplearning';
import { acquireTestGpu } from './test-device';
import type { AcquiredGpu } from './test-device';
import { trainDeepLearningGpu, gpuDeepLearningUnsupported } from './deeplearning';

describe('DeepLearning on the GPU engine', () => {
  let gpu: AcquiredGpu;
  beforeAll(async () => {
    gpu = await acquireTestGpu();
  });
  afterAll(async () => {
    await gpu?.destroy();
  });

  it.each(['Rectifier', 'Tanh'] as const)(
    '%s: the CPU trainer’s losses, epoch by epoch, and an ONNX export that scores alike',
    async (activation) => {
      const { frame, data } = await loadDataset('banknote_authentication.csv', 'C5', 'binary');
      const n = data.target.y.length;
      const rows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 !== 0);
      const validRows = Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 === 0);
      const params = { hidden: [16, 16], epochs: 2, seed: 7, activation, l2: 1e-4 };
      const cpu = trainDeepLearning({ ...data, rows, validRows }, params);
      const model = await trainDeepLearningGpu(gpu.device, { ...data, rows, validRows }, params, { lossEvery: 25 });
      expect(model.json.info.backend).toBe('webgpu');
      expect(model.json.scoring_history).toHaveLength(cpu.json.scoring_history.length);
      model.json.scoring_history.forEach((e, i) => {
        const c = cpu.json.scoring_history[i];
        expect(Math.abs(e.training!.loss - c.training!.loss)).toBeLessThan(1e-4);
        expect(Math.abs(e.validation!.loss - c.validation!.loss)).toBeLessThan(1e-4);
      });
      const margins = model.predictRaw(frame);
      const cpuMargins = cpu.predictRaw(frame);
      margins.forEach((v, i) => expect(Math.abs(v - cpuMargins[i])).toBeLessThan(1e-3 * Math.max(1, Math.abs(cpuMargins[i]))));
      const out = await runOnnx(exportDeepLearningOnnx(model), designFeeds(model.features, frame));
      (out.margin.data as number[]).forEach((v, i) => expect(Math.abs(v - margins[i]) / Math.max(1, Math.abs(margins[i]))).toBeLessThan(1e-5));
    },
    60_000,
  );

  it('multiclass and regression train too; dropout and SGD are left to the CPU', async () => {
    const { data } = await loadDataset('penguins.csv', 'species', 'multiclass');
    const params = { hidden: [8], epochs: 2, seed: 3 };
    const cpu = trainDeepLearning(data, params);
    const model = await trainDeepLearningGpu(gpu.device, data, params);
    model.json.scoring_history.forEach((e, i) => expect(Math.abs(e.training!.loss - cpu.json.scoring_history[i].training!.loss)).toBeLessThan(1e-4));
    const reg = await loadDataset('mpg.csv', 'mpg', 'regression');
    const rparams = { hidden: [8, 8], epochs: 2, seed: 3, activation: 'Tanh' as const };
    const rcpu = trainDeepLearning(reg.data, rparams);
    const rgpu = await trainDeepLearningGpu(gpu.device, reg.data, rparams);
    rgpu.json.scoring_history.forEach((e, i) => expect(Math.abs(e.training!.loss - rcpu.json.scoring_history[i].training!.loss)).toBeLessThan(1e-4));
    expect(gpuDeepLearningUnsupported({ activation: 'RectifierWithDropout' })).toMatch(/dropout/);
    expect(gpuDeepLearningUnsupported({ adaptive_rate: false })).toMatch(/SGD/);
    await expect(trainDeepLearningGpu(gpu.device, data, { input_dropout_ratio: 0.1 })).rejects.toThrow(/CPU/);
  }, 60_000);
});
