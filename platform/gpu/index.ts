export { acquireGpu, describeGpu, NoGpuAdapterError, BufferUsage, MapMode, COMPUTE_LIMITS } from './device';
export type { AcquiredGpu, AcquireOptions, GpuBackend, GpuDescription, ComputeLimitName } from './device';
