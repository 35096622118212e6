import type { Frame } from '../../engine/automl';
import { fitNeuralGpu, GpuFitUnsupported } from '../../engine/gpu';
import { validateSynthConfig, type FitHooks, type SynthModelType, type SynthesizerModel } from '../../engine/synth';
import type { NeuralModelType } from '../../engine/synth';
import { acquireGpu } from '../../platform/gpu';
import { gpuTrainingLine } from '../gpu-adapter-line';

/** How often at most the fit pulses (a heartbeat) while an epoch reports nothing, as the CPU fit's thread does. */
const PULSE_MS = 2000;

/**
 * A synthgen fit on this process's GPU (the ml-gpu worker): acquires a device for this training, fits on it
 * (engine/gpu/neural/fit.ts: CTGAN, CopulaGAN, TVAE), releases it. Resolves with null when the fit must run on the CPU
 * instead: no usable adapter, or a configuration the GPU engine cannot train on this device; `log` then says why, and
 * no training step has run. Cancel (`hooks.signal`) is checked before every step and rejects with the signal's reason.
 */
export async function fitOnGpu(type: SynthModelType, frame: Frame, config: unknown, hooks: FitHooks, log: (line: string) => Promise<void>): Promise<SynthesizerModel | null> {
  if (type === 'gaussian_copula') return null;
  const resolved = validateSynthConfig(type, config);
  let gpu;
  try {
    gpu = await acquireGpu();
  } catch (err) {
    await log(`training on the CPU: no usable GPU adapter (${(err as Error).message})`);
    return null;
  }
  try {
    await log(gpuTrainingLine(gpu.description));
    let reportedAt = Date.now();
    const { signal } = hooks;
    return await fitNeuralGpu(type as NeuralModelType, frame, resolved, {
      device: gpu.device,
      resumeFrom: hooks.resumeFrom,
      checkpointEveryMs: Math.max(0, (hooks.checkpointEverySecs ?? 10) * 1000),
      checkCancel: () => {
        if (signal?.aborted) throw signal.reason;
        if (Date.now() - reportedAt >= PULSE_MS) {
          reportedAt = Date.now();
          hooks.onPulse?.();
        }
      },
      onEpoch: (epoch, epochs, message) => {
        reportedAt = Date.now();
        hooks.onProgress?.(epoch / epochs, message);
      },
      onNote: (message) => hooks.onProgress?.(0, message),
      onCheckpoint: hooks.onCheckpoint,
    });
  } catch (err) {
    if (!(err instanceof GpuFitUnsupported)) throw err;
    await log(`training on the CPU: ${err.message}`);
    return null;
  } finally {
    await gpu.destroy();
  }
}
