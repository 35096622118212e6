import { binFrame } from './binning';
import { trainGBM } from './gbm';
import { exportOnnx } from './onnx/export';
import { onnxFeedData } from './onnx/feeds';
import { shapRecords } from './treeshap';
import { syntheticData } from './testutil';
import { trainGLM } from './glm/train';
import { trainDeepLearning } from './deeplearning/train';
import { modelFromJSON } from './registry';

describe('modelFromJSON', () => {
  const { features, target } = syntheticData(300, 'multiclass', 4);
  const data = { features, target };

  it('wraps tree models with their own exporter, feeds and TreeSHAP', () => {
    const gbm = trainGBM({ ...data, binned: binFrame(features) }, { ntrees: 5, seed: 1 });
    const m = modelFromJSON(JSON.parse(JSON.stringify(gbm.toJSON())));
    expect(m.algo).toBe('GBM');
    expect(m.classes).toEqual(['low', 'mid', 'high']);
    expect(Buffer.from(m.toONNX()).equals(Buffer.from(exportOnnx(gbm)))).toBe(true);
    expect(m.onnxFeeds(features)).toEqual(onnxFeedData(gbm, features));
    expect(m.contributions(features, 2)).toEqual(shapRecords(gbm, features, 2));
    expect(Array.from(m.predict(features).probabilities!)).toEqual(Array.from(gbm.predict(features).probabilities!));
  });

  it('restores GLM and DeepLearning models from JSON with the same predictions and contribution layout', () => {
    for (const trained of [trainGLM(data), trainDeepLearning(data, { hidden: [4], epochs: 2, seed: 1 })]) {
      const m = modelFromJSON(JSON.parse(JSON.stringify(trained.toJSON())));
      expect(m.algo).toBe(trained.algo);
      expect(m.features.map((f) => f.name)).toEqual(features.names);
      expect(Array.from(m.predict(features).probabilities!)).toEqual(Array.from(trained.predict(features).probabilities!));
      const c = m.contributions(features, 1)!;
      expect(c[0].map((r) => r.feature)).toEqual([...features.names, 'BiasTerm']);
      expect(m.varimp()).toHaveLength(features.names.length);
    }
  });

  it('rejects unknown algorithms and format versions', () => {
    expect(() => modelFromJSON({ algo: 'Magic' })).toThrow('unknown model algo Magic');
    const glm = trainGLM(data).toJSON();
    expect(() => modelFromJSON({ ...glm, format_version: 2 })).toThrow('format_version');
    expect(() => modelFromJSON(null)).toThrow('unknown model algo');
  });
});
