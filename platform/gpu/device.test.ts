import { acquireGpu, describeGpu, NoGpuAdapterError } from './device';

// CI has no GPU: Mesa's software renderer stands in, and its absence fails the test (it is never skipped).
process.env.GPU_ALLOW_SOFTWARE = '1';

describe('acquireGpu', () => {
  it('finds an adapter and describes it with the compute limits it requested', async () => {
    const gpu = await acquireGpu();
    try {
      const d = gpu.description;
      expect(['vulkan', 'opengles']).toContain(d.backend);
      expect(d.limits.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(256);
      expect(gpu.device.limits.maxComputeInvocationsPerWorkgroup).toBe(d.limits.maxComputeInvocationsPerWorkgroup);
      expect(describeGpu(d)).toContain(d.backend);
      if (d.backend === 'opengles') expect(d.software).toBe(true);
    } finally {
      await gpu.destroy();
    }
  });

  it('refuses a software renderer unless allowed', async () => {
    const gpu = await acquireGpu({ allowSoftware: true });
    const software = gpu.description.software;
    await gpu.destroy();
    if (software) await expect(acquireGpu({ allowSoftware: false })).rejects.toThrow(NoGpuAdapterError);
    else await (await acquireGpu({ allowSoftware: false })).destroy();
  });
});
