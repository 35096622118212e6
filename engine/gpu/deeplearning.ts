/// <reference types="@webgpu/types" />
/**
 * The AutoML DeepLearning MLP trained on the GPU: the CPU trainer's inputs and outputs (TrainingData and
 * DeepLearningParams in, a DeepLearningModel out, so it exports to ONNX, checkpoints and resumes exactly as today), the
 * same design, initialisation, batch order, losses, Adam and early stopping (engine/automl/deeplearning's setup),
 * with the steps on a static GPU graph (./mlp.ts).
 *
 * Not on the GPU yet: dropout (input_dropout_ratio, the ...WithDropout activations) and plain SGD
 * (adaptive_rate false). `gpuDeepLearningUnsupported` names what a job asked for that the GPU cannot do, so the
 * caller trains those on the CPU.
 */
import { DeepLearningModel, DeepLearningParams, deepLearningModel, deepLearningShouldStop, gatherBatch, prepareDeepLearning } from '../automl/deeplearning';
import type { DeepLearningJSON } from '../automl/deeplearning';
import type { TrainingData } from '../automl/training';
import { trainingPulse } from '../automl/pulse';
import type { LossKind } from './kernels';
import { GpuMlp } from './mlp';
import { GpuRuntime } from './runtime';

/** Why these parameters need the CPU trainer, or null when the GPU trainer takes them. */
export function gpuDeepLearningUnsupported(params: DeepLearningParams): string | null {
  if (params.adaptive_rate === false) return 'plain SGD (adaptive_rate false)';
  if ((params.input_dropout_ratio ?? 0) > 0) return 'input dropout';
  if (params.activation?.endsWith('WithDropout')) return `the ${params.activation} activation (hidden dropout)`;
  return null;
}

export interface GpuTrainOptions {
  /** Steps between loss readbacks (each a GPU round trip); default 100. */
  lossEvery?: number;
  /** Called with each readback's mean training loss, for progress. */
  onLosses?: (epoch: number, meanLoss: number) => void;
}

/**
 * Trains the DeepLearning MLP on `device`; the same model the CPU trainer makes, within float rounding. Its buffers
 * are released before it resolves; the device stays the caller's.
 */
export async function trainDeepLearningGpu(device: GPUDevice, data: TrainingData, params: DeepLearningParams = {}, options: GpuTrainOptions = {}): Promise<DeepLearningModel> {
  const why = gpuDeepLearningUnsupported(params);
  if (why) throw new Error(`The GPU DeepLearning trainer does not do ${why}; train it on the CPU.`);
  const rt = new GpuRuntime(device);
  try {
    return await fit(rt, data, params, options);
  } finally {
    await rt.destroy();
  }
}

async function fit(rt: GpuRuntime, data: TrainingData, params: DeepLearningParams, options: GpuTrainOptions): Promise<DeepLearningModel> {
  const setup = prepareDeepLearning(data, params);
  const { p, n, sizes, B, rng } = setup;
  const kind = data.target.kind;
  const loss: LossKind = kind === 'binary' ? 'bce_logits' : kind === 'multiclass' ? 'softmax_ce' : 'mse';
  const activation = p.activation === 'Tanh' ? 'tanh' : 'relu';
  const lossEvery = options.lossEvery ?? 100;
  const biases = sizes.slice(1).map((m) => new Float32Array(m));
  const mlp = new GpuMlp(rt, { sizes, activation, loss, l1: p.l1, l2: p.l2 }, { weights: setup.initialWeights, biases }, { lr: p.rate }, { batch: B, lossEvery });

  const order = Uint32Array.from({ length: n }, (_, i) => i);
  const history: number[] = [];
  const events: DeepLearningJSON['scoring_history'] = [];
  let best = { weights: setup.initialWeights as ArrayLike<number>[], biases: biases as ArrayLike<number>[], epoch: 0, loss: Infinity };
  const report = async (epoch: number) => {
    const losses = await mlp.takeLosses();
    if (losses.length && options.onLosses) options.onLosses(epoch, losses.reduce((s, v) => s + v, 0) / losses.length);
  };
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    rng.shuffle(order);
    let untaken = 0;
    for (let s = 0; s < n; s += B) {
      trainingPulse();
      const m = Math.min(B, n - s);
      const { xb, yb } = gatherBatch(setup, order, s, m);
      // The CPU trainer draws a dropout seed per batch; drawing it here keeps the two shuffles in step.
      rng.next();
      mlp.step(xb, yb, m);
      if (++untaken === lossEvery) {
        untaken = 0;
        await report(epoch);
      }
    }
    await report(epoch);
    const trainLoss = await mlp.evaluate(setup.Xtr, setup.Ytr, n);
    const metric = setup.Xva && setup.Yva ? await mlp.evaluate(setup.Xva, setup.Yva, setup.validCount) : trainLoss;
    events.push({ number_of_trees: epoch + 1, training: { loss: trainLoss }, ...(setup.Xva ? { validation: { loss: metric } } : {}) });
    history.push(metric);
    if (metric < best.loss) best = { ...(await mlp.parameters()), epoch: epoch + 1, loss: metric };
    if (deepLearningShouldStop(history, p)) break;
  }
  return deepLearningModel(setup, best, events, 'webgpu');
}
