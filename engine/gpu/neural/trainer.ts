/// <reference types="@webgpu/types" />
/**
 * The contract between the GPU neural trainers (CTGAN / CopulaGAN: ./ctgan.ts, TVAE: ./tvae.ts) and the GPU fit loop
 * (./fit.ts). A GPU trainer is the CPU trainer of engine/synth/neural (CtganTrainer, TvaeTrainer) with its steps on a
 * static GPU graph: the same constructor arguments (a GpuRuntime first), the same random numbers drawn in the same
 * order, the same parameter names and shapes, the same checkpoint state. So a fitted GPU model is indistinguishable in
 * format from a CPU one (serialised, sampled and exported exactly as today), and a checkpoint taken on one engine
 * resumes on the other.
 *
 * Rules every implementation keeps:
 * - Construction draws the initial weights from `rng` exactly as the CPU trainer's constructor does (`linearInit` of
 *   engine/synth/neural/host-random.ts, same layer order), so a seed gives both engines the same starting point.
 * - `epoch` runs the CPU trainer's number of steps (`stepsPerEpoch`) in its batch order. Every random number a step
 *   uses (batch rows, shuffles, conditional vectors, noise, dropout masks, Gumbel noise, penalty interpolation weights)
 *   is drawn on the host from `rng` in the CPU step's order (`hostDraws` of engine/synth/neural/host-random.ts, free of
 *   TF.js: the arrays behind normalTensor, uniformTensor, gumbelTensor, dropoutMask) and written into the step's input
 *   buffers; that is what
 *   the equality tests compare (GPU losses and weights after a few steps equal to the CPU's within float tolerance).
 *   An implementation may add an on-GPU generator for speed behind `GpuNeuralOptions.random`, but 'host' stays
 *   available and is the default.
 * - `checkCancel` is called before every step; when it throws, the epoch rejects with that error (nothing is left
 *   queued that would still touch released buffers after `dispose`).
 * - One command buffer per step; the losses stay on the GPU until the end of the epoch (one readback an epoch).
 *   A model's own WGSL kernels go through `GpuRuntime.custom` (their code starts with KERNEL_HEADER of ../kernels).
 * - The runtime is the caller's, made for this one fit: the fit destroys it (every buffer) after `dispose`.
 * - Tensor names: the CPU trainer's readState keys ('G/', 'D/', 'AG/', 'AD/' for CTGAN; 'N/', 'A/' for TVAE; the Adam
 *   moments 'm' and 'v' flat in parameter order) and shapes (weights [fanIn, fanOut], row-major).
 */
import type { CondSampler } from '../../synth/neural/cond-sampler';
import type { CtganLosses } from '../../synth/neural/ctgan';
import type { TensorData } from '../../synth/neural/params';
import type { NeuralRng } from '../../synth/neural/rng';
import type { Layout } from '../../synth/neural/transformer';
import type { CtganConfig, TvaeConfig } from '../../synth/types';
import type { GpuRuntime } from '../runtime';

export type { CtganLosses, TensorData };

/** TVAE's per-epoch loss (the last step's), as TvaeTrainer.epoch returns it. */
export interface TvaeLosses {
  loss: number;
}

/** Adam step counters as the CPU trainers keep them: CTGAN one per network, TVAE one. */
export type CtganSteps = { g: number; d: number };
export type TvaeSteps = number;

/** Options a GPU trainer may take beyond the CPU trainer's arguments. */
export interface GpuNeuralOptions {
  /**
   * Where a step's random numbers come from: 'host' (drawn from the NeuralRng, the CPU trainer's stream: equal
   * results, what the tests and the fit use) or 'device' (an on-GPU counter-based generator, where implemented; a
   * resumed fit is then reproducible on the GPU only). Default 'host'.
   */
  random?: 'host' | 'device';
}

export interface GpuNeuralTrainer<L, S> {
  /** The CPU trainer's step count per epoch (CTGAN: max(1, floor(rows / batch)); TVAE: ceil(rows / batch)). */
  readonly stepsPerEpoch: number;
  /** One epoch, `checkCancel` called before each step; resolves with the epoch's losses, read back once. */
  epoch(rng: NeuralRng, checkCancel: () => void): Promise<L>;
  /** The CPU trainer's readState: same tensor names, shapes and step counters. */
  readState(): Promise<{ tensors: Record<string, TensorData>; steps: S }>;
  /** The CPU trainer's writeState (throws on a missing tensor or another shape). */
  writeState(tensors: Record<string, TensorData>, steps: S): void;
  /** What the CPU trainer's generatorWeights() (CTGAN) or decoderWeights() (TVAE) returns, same names and layout. */
  modelWeights(): Promise<Record<string, TensorData>>;
  /** Drops what the trainer holds beyond the runtime's buffers (the caller then destroys the runtime). */
  dispose(): void;
}

/** CTGAN / CopulaGAN (CopulaGAN is CTGAN on normal scores: the same trainer). */
export interface GpuCtganTrainer extends GpuNeuralTrainer<CtganLosses, CtganSteps> {
  /** Built as CtganTrainer's (CondSampler.fromEncoded): the model's discreteCounts come from `sampler.counts()`. */
  readonly sampler: CondSampler;
}

export type GpuTvaeTrainer = GpuNeuralTrainer<TvaeLosses, TvaeSteps>;

/** Mirrors `new CtganTrainer(layout, encoded, nrows, config, rng)`. */
export type GpuCtganTrainerFactory = (rt: GpuRuntime, layout: Layout, encoded: Float32Array, nrows: number, config: CtganConfig, rng: NeuralRng, options?: GpuNeuralOptions) => GpuCtganTrainer;

/** Mirrors `new TvaeTrainer(layout, encoded, nrows, config, rng)`. */
export type GpuTvaeTrainerFactory = (rt: GpuRuntime, layout: Layout, encoded: Float32Array, nrows: number, config: TvaeConfig, rng: NeuralRng, options?: GpuNeuralOptions) => GpuTvaeTrainer;

/**
 * Why a configuration (on this layout and device) needs the CPU trainer, or null when the GPU trainer takes it (e.g.
 * a buffer past the device's maxStorageBufferBindingSize). The fit falls back to the CPU with this reason in the log.
 */
export type GpuNeuralUnsupported<C> = (config: C, layout: Layout, device: GPUDevice) => string | null;
