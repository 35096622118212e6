import { acquireGpu, describeGpu, NoGpuAdapterError, type GpuDescription } from '../platform/gpu';
import type { Logger } from '../platform/logger';
import type { QueueFamily } from '../workflows/job-input';

/** What a machine must offer before it may poll `ml-gpu`; every refusal says it. */
export const GPU_MACHINE_NEEDS =
  'A GPU worker needs a GPU driver with Vulkan and the Vulkan loader (Debian/Ubuntu: libvulkan1); NVIDIA, AMD and Intel GPUs work through Dawn. ' +
  "Mesa's software renderer (GPU_ALLOW_SOFTWARE=1, for tests and CI) needs Debian's libegl1, libegl-dev, libegl-mesa0, libgles2 and libgl1-mesa-dri.";

/** The `gpu` family was asked for and this machine has no usable adapter. */
export class GpuWorkerRefusedError extends Error {
  override name = 'GpuWorkerRefusedError';
}

/**
 * Finds the adapter a gpu worker would train on and releases it again: the check proves the machine can open a device
 * (driver, loader, limits) before the worker takes a task, while each training acquires its own device.
 * Any failure, including `dawn.node` failing to load, is a refusal naming what a GPU machine needs.
 */
export async function checkGpuAdapter(): Promise<GpuDescription> {
  let gpu;
  try {
    gpu = await acquireGpu();
  } catch (err) {
    const found = err instanceof NoGpuAdapterError ? err.message : `Dawn could not look for a GPU adapter: ${(err as Error).message}`;
    throw new GpuWorkerRefusedError(`${found} ${GPU_MACHINE_NEEDS}`, { cause: err });
  }
  try {
    return gpu.description;
  } finally {
    await gpu.destroy();
  }
}

/**
 * The families a worker process runs after the adapter check. A process asked for `gpu` alone refuses to start
 * (GpuWorkerRefusedError): a GPU machine without a GPU must not take `use_gpu` jobs, which then go to the CPU workers
 * after GPU_SCHEDULE_TO_START_SECS. A process that also runs `io` or `cpu` (`npm start` on a laptop) keeps those and
 * drops `gpu` with a warning, for the same fallback.
 */
export async function familiesAfterGpuCheck(families: QueueFamily[], log: Logger, check: () => Promise<GpuDescription> = checkGpuAdapter): Promise<QueueFamily[]> {
  if (!families.includes('gpu')) return families;
  try {
    const gpu = await check();
    log.info({ gpu }, `GPU adapter: ${describeGpu(gpu)}`);
    if (gpu.software) log.warn('the GPU adapter is a software renderer (GPU_ALLOW_SOFTWARE=1): correct results at CPU speed, for tests only');
    return families;
  } catch (err) {
    const others = families.filter((f) => f !== 'gpu');
    if (!others.length || !(err instanceof GpuWorkerRefusedError)) throw err;
    log.warn({ families: others }, `not polling ml-gpu: ${err.message} use_gpu jobs go to the CPU workers after GPU_SCHEDULE_TO_START_SECS.`);
    return others;
  }
}
