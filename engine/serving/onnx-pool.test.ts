import * as ort from 'onnxruntime-node';
import { binFrame } from '../automl/binning';
import { trainGBM } from '../automl/gbm';
import { exportOnnx } from '../automl/onnx/export';
import { onnxFeedData } from '../automl/onnx/feeds';
import { syntheticData } from '../automl/testutil';
import { OnnxFeeds, OnnxSessionPool } from './onnx-pool';

const { features, target } = syntheticData(200, 'multiclass', 3);
const gbm = trainGBM({ features, target, binned: binFrame(features) }, { ntrees: 5, seed: 1 });
const bytes = exportOnnx(gbm);
const all = onnxFeedData(gbm, features);
/** Where every session's `run` lives, to count the runs. */
const sessionPrototype = (ort.InferenceSession as unknown as { prototype: ort.InferenceSession }).prototype;

/** Rows [start, end) of the feeds. */
function rowsOf(feeds: OnnxFeeds, start: number, end: number): OnnxFeeds {
  return Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, Array.isArray(v) ? v.slice(start, end) : v.slice(start, end)]));
}

describe('OnnxSessionPool', () => {
  let pool: OnnxSessionPool;
  beforeEach(() => {
    pool = new OnnxSessionPool(2);
  });
  afterEach(() => pool.close());

  it('scores requests of the same loop turn in one run, each answered with its own rows', async () => {
    const load = jest.fn(async () => bytes);
    const whole = (await pool.run('gbm', load, all, 200, ['probabilities'])).outputs.probabilities;
    const runs = jest.spyOn(sessionPrototype, 'run');
    const sizes = [1, 3, 1, 7, 2];
    let at = 0;
    const spans = sizes.map((n) => [at, (at += n)] as const);
    const answers = await Promise.all(spans.map(([s, e]) => pool.run('gbm', load, rowsOf(all, s, e), e - s, ['probabilities'])));
    expect(runs).toHaveBeenCalledTimes(1);
    runs.mockRestore();
    spans.forEach(([s, e], i) => {
      expect(answers[i].hit).toBe(true);
      const got = Array.from(answers[i].outputs.probabilities);
      const want = Array.from(whole.slice(s * 3, e * 3));
      got.forEach((v, j) => expect(v).toBeCloseTo(want[j], 5));
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps one request's failure its own: a bad request fails alone, the others of its batch are scored", async () => {
    const load = async () => bytes;
    await pool.run('gbm', load, rowsOf(all, 0, 1), 1, ['probabilities']);
    // Text where the graph takes numbers: run alone it fails in ONNX Runtime; it must not be merged into numbers.
    const wrongShape = Object.fromEntries(Object.keys(all).map((k) => [k, ['not a number']]));
    const [good, bad, alsoGood] = await Promise.allSettled([
      pool.run('gbm', load, rowsOf(all, 0, 1), 1, ['probabilities']),
      pool.run('gbm', load, wrongShape, 1, ['probabilities']),
      pool.run('gbm', load, rowsOf(all, 1, 2), 1, ['probabilities']),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(alsoGood.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
  });

  it('does not batch across loop turns, nor past the batch size', async () => {
    const load = async () => bytes;
    await pool.run('gbm', load, rowsOf(all, 0, 1), 1, ['probabilities']);
    const runs = jest.spyOn(sessionPrototype, 'run');
    await pool.run('gbm', load, rowsOf(all, 0, 1), 1, ['probabilities']);
    await pool.run('gbm', load, rowsOf(all, 1, 2), 1, ['probabilities']);
    expect(runs).toHaveBeenCalledTimes(2);
    runs.mockClear();
    await Promise.all([pool.run('gbm', load, rowsOf(all, 0, 200), 200, ['probabilities']), pool.run('gbm', load, rowsOf(all, 0, 100), 100, ['probabilities'])]);
    expect(runs).toHaveBeenCalledTimes(2);
    runs.mockRestore();
  });
});
