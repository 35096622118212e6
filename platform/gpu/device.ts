/// <reference types="@webgpu/types" />
/**
 * Acquiring a WebGPU device from Node through Dawn (the `webgpu` npm package).
 *
 * Hardware first: Dawn's default backend (Vulkan on Linux, through `libvulkan1` and the vendor's ICD). Mesa's software
 * renderer (Dawn's OpenGL ES backend on llvmpipe) only when `GPU_ALLOW_SOFTWARE=1` (tests and CI): it computes the
 * same results, slowly, and must never be mistaken for a GPU by a worker that advertises one.
 *
 * Like platform/threads this module imports nothing but Node and the `webgpu` package, so the engine may use it.
 */
import Module from 'node:module';
import { dirname, join } from 'node:path';

/** The limits a compute engine cares about; requested at the adapter's own values (the defaults are far smaller). */
export const COMPUTE_LIMITS = [
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
] as const;
export type ComputeLimitName = (typeof COMPUTE_LIMITS)[number];

export type GpuBackend = 'vulkan' | 'opengles';

export interface GpuDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  backend: GpuBackend;
  /** A CPU renderer (Mesa llvmpipe/lavapipe, SwiftShader): correct results, no GPU speed. */
  software: boolean;
  limits: Record<ComputeLimitName, number>;
}

export interface AcquiredGpu {
  device: GPUDevice;
  description: GpuDescription;
  /** Waits for the submitted work, then releases the device (Dawn's GL backend crashes on a device destroyed mid-work). */
  destroy(): Promise<void>;
}

export interface AcquireOptions {
  /** Accept a software renderer when no hardware adapter is found; default: `GPU_ALLOW_SOFTWARE=1`. */
  allowSoftware?: boolean;
}

export class NoGpuAdapterError extends Error {
  override name = 'NoGpuAdapterError';
}

/** The WebGPU spec's usage and map-mode bits, so callers need not install Dawn's globals on globalThis. */
export const BufferUsage = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  UNIFORM: 0x40,
  STORAGE: 0x80,
} as const;
export const MapMode = { READ: 0x1, WRITE: 0x2 } as const;

interface DawnModule {
  create(flags: string[]): GPU;
}

/** Fields of GPUAdapterInfo that older @webgpu/types versions do not declare on the adapter. */
interface AdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

let dawn: DawnModule | undefined;

/**
 * Loads `dawn.node` directly: the package's index.js is an ES module, which neither this CommonJS build nor Jest's
 * module registry can require. What index.js adds (unmapping buffers on device.destroy) we do not rely on.
 */
function loadDawn(): DawnModule {
  if (dawn) return dawn;
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('webgpu/package.json'));
  } catch {
    throw new NoGpuAdapterError('The `webgpu` package is not installed, so no GPU adapter can be had.');
  }
  const arch = process.platform === 'darwin' ? 'universal' : process.arch;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a native addon found at run time
  dawn = require(join(packageDir, 'dist', `${process.platform}-${arch}`, 'dawn.node')) as DawnModule;
  return dawn;
}

/**
 * The environment native code reads. Under Jest `process.env` is a sandbox copy that never reaches getenv(); Node's
 * own loader hands back the host process. Outside Jest both are the same object.
 */
function hostProcessEnv(): NodeJS.ProcessEnv {
  const load = (Module as unknown as { _load?: (request: string) => unknown })._load;
  const host = load?.('process') as NodeJS.Process | undefined;
  return host?.env ?? process.env;
}

const SOFTWARE_NAMES = /llvmpipe|softpipe|lavapipe|swiftshader/i;

function isSoftware(info: AdapterInfoLike, adapter: GPUAdapter): boolean {
  if (adapter.isFallbackAdapter || info.isFallbackAdapter) return true;
  return SOFTWARE_NAMES.test(`${info.device ?? ''} ${info.description ?? ''} ${info.architecture ?? ''}`);
}

async function openDevice(adapter: GPUAdapter, backend: GpuBackend): Promise<AcquiredGpu> {
  const info = ((adapter as GPUAdapter & { info?: AdapterInfoLike }).info ?? {}) as AdapterInfoLike;
  const adapterLimits = adapter.limits as unknown as Record<string, number>;
  const limits = {} as Record<ComputeLimitName, number>;
  for (const name of COMPUTE_LIMITS) limits[name] = adapterLimits[name];
  const device = await adapter.requestDevice({ requiredLimits: limits });
  const description: GpuDescription = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
    backend,
    software: isSoftware(info, adapter),
    limits,
  };
  const destroy = async (): Promise<void> => {
    await device.queue.onSubmittedWorkDone();
    device.destroy();
  };
  return { device, description, destroy };
}

/**
 * One Dawn instance per backend for the life of the process: a GPU object that is garbage-collected while its
 * devices live takes the process down (seen as a segfault or an abort under Jest, where GC runs often).
 */
const instances = new Map<string, GPU>();

async function requestAdapter(flags: string[], options: GPURequestAdapterOptions & { featureLevel?: string }) {
  const key = flags.join(' ');
  let gpu = instances.get(key);
  if (!gpu) {
    gpu = loadDawn().create(flags);
    instances.set(key, gpu);
  }
  return gpu.requestAdapter(options);
}

/**
 * The best device this machine offers: a hardware adapter through Vulkan, else (when allowed) Mesa's software
 * renderer through OpenGL ES. Throws NoGpuAdapterError, saying what was tried, when there is none.
 */
export async function acquireGpu(options: AcquireOptions = {}): Promise<AcquiredGpu> {
  const allowSoftware = options.allowSoftware ?? process.env.GPU_ALLOW_SOFTWARE === '1';
  const tried: string[] = [];
  const hardware = await requestAdapter([], { powerPreference: 'high-performance' });
  if (hardware) {
    const acquired = await openDevice(hardware, 'vulkan');
    if (!acquired.description.software || allowSoftware) return acquired;
    await acquired.destroy();
    tried.push(`Vulkan offered only a software adapter (${acquired.description.device})`);
  } else {
    tried.push('Vulkan found no adapter (are libvulkan1 and libglvnd0 installed, with the GPU vendor’s ICD?)');
  }
  if (!allowSoftware) {
    throw new NoGpuAdapterError(`No hardware GPU adapter: ${tried.join('; ')}. Set GPU_ALLOW_SOFTWARE=1 to use Mesa's software renderer.`);
  }
  // Mesa's EGL needs no display for compute; Dawn reads this when its GL backend starts.
  const env = hostProcessEnv();
  env.EGL_PLATFORM ??= 'surfaceless';
  const software = await requestAdapter(['backend=opengles'], { featureLevel: 'compatibility' });
  if (software) return openDevice(software, 'opengles');
  tried.push("OpenGL ES found no adapter (are Debian's libegl1, libegl-dev, libegl-mesa0, libgles2 and libgl1-mesa-dri installed? .ci/run installs them)");
  throw new NoGpuAdapterError(`No GPU adapter: ${tried.join('; ')}.`);
}

/** One line for a log: what was found and the limits that matter. */
export function describeGpu(d: GpuDescription): string {
  const name = [d.vendor, d.architecture, d.device].filter(Boolean).join(' ') || 'unknown adapter';
  const kind = d.software ? 'software renderer' : 'hardware';
  return `${name} (${d.description}; ${d.backend}, ${kind}; workgroup ≤ ${d.limits.maxComputeInvocationsPerWorkgroup} invocations, ${d.limits.maxComputeWorkgroupStorageSize} B shared, ${d.limits.maxStorageBuffersPerShaderStage} storage buffers)`;
}
