/**
 * The device the engine's tests run on: a GPU when there is one, else Mesa's software renderer (CI). No adapter at all
 * fails the test with the reason; nothing is skipped. The engine itself takes a GPUDevice from its caller; only its
 * tests acquire one.
 */
import { acquireGpu, type AcquiredGpu } from '../../platform/gpu';

export type { AcquiredGpu };

export async function acquireTestGpu(): Promise<AcquiredGpu> {
  try {
    return await acquireGpu({ allowSoftware: true });
  } catch (e) {
    throw new Error(`The GPU engine's tests need a WebGPU adapter: ${(e as Error).message} (.ci/run installs Mesa: libegl1, libegl-dev, libegl-mesa0, libgles2, libgl1-mesa-dri).`, { cause: e });
  }
}
