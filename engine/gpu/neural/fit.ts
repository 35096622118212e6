/// <reference types="@webgpu/types" />
/**
 * The neural fit on the GPU (CTGAN, CopulaGAN: ./ctgan.ts; TVAE: ./tvae.ts): fitNeuralCore's contract (engine/synth/neural/fit-core.ts) with the epochs on a GPU
 * trainer (./trainer.ts). The same preparation (prepare.ts: columns, CopulaGAN's marginals, transformer, encoding),
 * progress lines, cooperative cancel before every step, checkpoints and resume, and the same NeuralModel: a
 * checkpoint of either engine resumes on the other, and the model samples and exports as a CPU one. Its
 * `params.backend` is 'webgpu'.
 *
 * Unlike fitNeuralCore it is async and runs in the caller's process (no worker thread): the steps run on the GPU, and
 * the loop yields to the event loop between groups of steps (heartbeats, a cancel) and at every readback.
 */
import type { Frame } from '../../automl';
import type { NeuralModelType } from '../../synth/neural/config';
import type { NeuralModel } from '../../synth/neural/model';
import type { CondSampler } from '../../synth/neural/cond-sampler';
import { assembleNeuralModel, CheckpointClock, checkpointBytes, epochMessage, FitCoreHooks, PreparedFit, prepareNeuralFit, TrainerSteps } from '../../synth/neural/prepare';
import { NeuralRng } from '../../synth/neural/rng';
import type { CtganConfig, TvaeConfig } from '../../synth/types';
import { GpuRuntime } from '../runtime';
import { createGpuCtganTrainer, ctganGpuUnsupported } from './ctgan';
import type { CtganLosses, GpuNeuralTrainer, TvaeLosses } from './trainer';
import { createGpuTvaeTrainer, tvaeGpuUnsupported } from './tvae';

/** The model's `params.backend` for a GPU fit. */
export const GPU_NEURAL_BACKEND = 'webgpu';

/** The GPU engine cannot train this fit (the reason says why); the caller trains it on the CPU instead. */
export class GpuFitUnsupported extends Error {
  override name = 'GpuFitUnsupported';
}

export interface GpuFitHooks extends Omit<FitCoreHooks, 'onCheckpoint'> {
  /** The device to train on (the caller's: acquired for this fit and released after it). */
  device: GPUDevice;
  /** Awaited before training goes on; a rejection fails the fit. */
  onCheckpoint?: (checkpoint: Uint8Array, epoch: number) => void | Promise<void>;
  /**
   * Where CTGAN's and CopulaGAN's per-step random numbers come from. Default 'device': drawing a step's noise, Gumbel
   * noise and dropout masks on the host took 12.3 ms a step at the default sizes (2 loaded cores), more than the whole
   * 5 ms step budget on a GPU; on the device it is a few dispatches. 'host' draws them from the CPU trainer's stream
   * (equal results to the CPU fit, what the equality tests compare). TVAE draws only its batch and noise, on the host.
   */
  random?: 'host' | 'device';
}

/** Either engine's trainer, as the fit loop drives it (CTGAN's has the sampler its model's counts come from). */
type FitTrainer = GpuNeuralTrainer<CtganLosses | TvaeLosses, TrainerSteps> & { readonly sampler?: CondSampler };

/** Why this fit needs the CPU on this device (a buffer past its binding limit, too few storage bindings), or null. */
function deviceUnsupported(fit: PreparedFit, device: GPUDevice): string | null {
  const { layout } = fit.transformer;
  return fit.type === 'tvae' ? tvaeGpuUnsupported(fit.config as TvaeConfig, layout, device) : ctganGpuUnsupported(fit.config as CtganConfig, layout, device);
}

/** The type's GPU trainer (CopulaGAN: CTGAN's, on the normal scores prepare.ts made). */
function createTrainer(rt: GpuRuntime, fit: PreparedFit, rng: NeuralRng, random: 'host' | 'device'): FitTrainer {
  const { layout } = fit.transformer;
  // The two trainers differ in their losses' and step counters' types only; the fit hands each its own back.
  if (fit.type === 'tvae') return createGpuTvaeTrainer(rt, layout, fit.encoded, fit.nrows, fit.config as TvaeConfig, rng) as unknown as FitTrainer;
  return createGpuCtganTrainer(rt, layout, fit.encoded, fit.nrows, fit.config as CtganConfig, rng, { random }) as unknown as FitTrainer;
}

/**
 * Fits a neural model on the GPU. Rejects with GpuFitUnsupported (before any training) when the GPU engine cannot
 * train it, with the error `checkCancel` throws when cancelled, and with a GPU validation or memory error if the
 * device refuses the graph.
 */
export async function fitNeuralGpu(type: NeuralModelType, frame: Frame, input: Partial<CtganConfig> | Partial<TvaeConfig>, hooks: GpuFitHooks): Promise<NeuralModel> {
  const fit = prepareNeuralFit(type, frame, input, hooks);
  const why = deviceUnsupported(fit, hooks.device);
  if (why) throw new GpuFitUnsupported(why);
  const { config, resume } = fit;
  const { device } = hooks;
  const rt = new GpuRuntime(device);
  const rng = new NeuralRng(fit.seed);
  let trainer: FitTrainer | null = null;
  try {
    // Dawn reports an invalid pipeline, bind group or an allocation it could not make asynchronously, through error
    // scopes; without one, a refused graph would train to garbage silently. The scope covers the graph and a first epoch.
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    let scoped = true;
    const closeScopes = async () => {
      if (!scoped) return;
      scoped = false;
      const errors = [await device.popErrorScope(), await device.popErrorScope()].filter((e) => e !== null);
      if (errors.length) throw new Error(`the GPU refused the ${type} graph: ${errors.map((e) => e.message).join('; ')}`);
    };
    try {
      trainer = createTrainer(rt, fit, rng, hooks.random ?? 'device');
      if (resume) {
        trainer.writeState(resume.tensors, resume.steps);
        rng.state = resume.rngState;
      }
      const clock = new CheckpointClock(config.epochs, hooks.checkpointEveryMs);
      const check = hooks.checkCancel ?? (() => {});
      for (let epoch = (resume?.epoch ?? 0) + 1; epoch <= config.epochs; epoch++) {
        const losses = await trainer.epoch(rng, check);
        await closeScopes();
        hooks.onEpoch?.(epoch, config.epochs, epochMessage(epoch, config.epochs, losses));
        if (hooks.onCheckpoint && clock.due(epoch)) {
          await hooks.onCheckpoint(checkpointBytes(fit, epoch, rng.state, await trainer.readState()), epoch);
          clock.taken();
        }
      }
      const weights = await trainer.modelWeights();
      await closeScopes();
      return assembleNeuralModel(fit, weights, trainer.sampler?.counts() ?? [], GPU_NEURAL_BACKEND);
    } finally {
      // A cancel or error mid-epoch leaves the scopes open: pop them so the device's scope stack stays balanced.
      if (scoped) await closeScopes().catch(() => undefined);
    }
  } finally {
    trainer?.dispose();
    await rt.destroy();
  }
}
