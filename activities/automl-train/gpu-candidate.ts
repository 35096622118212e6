/**
 * AutoML's DeepLearning on a gpu worker: the candidate (its folds, scores and final model: engine/automl's
 * trainCandidateWith) with every model trained by the GPU engine's trainDeepLearningGpu, which makes the model the CPU
 * trainer makes (within float rounding), so it exports to ONNX and scores as a CPU-trained one. It runs in a training
 * thread (training-thread.ts) with a device of its own, acquired for this model and released after it.
 *
 * Whatever the GPU cannot train falls back to the CPU candidate in the same thread, and the model's events (the
 * experiment's log) say why; a GPU model's events name the adapter.
 */
import { CandidateOptions, CandidateResult, ModelSpec, PreparedExperiment, trainCandidate, trainCandidateWith } from '../../engine/automl';
import { gpuDeepLearningUnsupported, trainDeepLearningGpu } from '../../engine/gpu';
import { acquireGpu } from '../../platform/gpu';
import { nativeSection, stopRequested, ThreadStopping } from '../../platform/threads';
import { gpuTrainingLine } from '../gpu-adapter-line';

type GpuParams = Parameters<typeof gpuDeepLearningUnsupported>[0];

function onCpu(pe: PreparedExperiment, spec: ModelSpec, opts: CandidateOptions, why: string): CandidateResult {
  const result = trainCandidate(pe, spec, opts);
  result.events.unshift(`${spec.name}: training on the CPU: ${why}`);
  return result;
}

export async function trainCandidateOnGpu(pe: PreparedExperiment, spec: ModelSpec, opts: CandidateOptions): Promise<CandidateResult> {
  const unsupported = spec.algo === 'DeepLearning' ? gpuDeepLearningUnsupported(spec.params as GpuParams) : `${spec.algo} has no GPU trainer`;
  if (unsupported) return onCpu(pe, spec, opts, unsupported);
  let gpu;
  try {
    gpu = await acquireGpu();
  } catch (err) {
    return onCpu(pe, spec, opts, `no usable GPU adapter (${(err as Error).message})`);
  }
  try {
    // A native section: the pool stops a cancelled thread only once it has left (Dawn's GL backend crashes on a device
    // torn down mid-work), and the trainer leaves at its next loss read back once asked to stop.
    const result = await nativeSection(() =>
      trainCandidateWith(
        pe,
        spec,
        ({ data, params }) =>
          trainDeepLearningGpu(gpu.device, data, params as GpuParams, {
            onLosses: () => {
              if (stopRequested()) throw new ThreadStopping('the thread is being stopped');
            },
          }),
        opts,
      ),
    );
    result.events.unshift(`${spec.name}: ${gpuTrainingLine(gpu.description)}`);
    return result;
  } finally {
    await gpu.destroy();
  }
}
