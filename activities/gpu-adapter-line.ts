import type { GpuDescription } from '../platform/gpu';

/**
 * The adapter as a GPU training's log names it, `training on GPU: <vendor> <device> (<backend>)` (synthgen's job log,
 * AutoML's experiment log), so a user sees where a `use_gpu` job trained.
 */
export function gpuTrainingLine(gpu: GpuDescription): string {
  const name = [gpu.vendor, gpu.device].filter(Boolean).join(' ') || gpu.description || 'unknown adapter';
  return `training on GPU: ${name} (${gpu.backend}${gpu.software ? ', software renderer' : ''})`;
}
