import NodeEnvironment from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';

/** Constructors native addons create values of; they must be the host's for instanceof to work. */
const HOST_GLOBALS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

/**
 * jest's node environment with the host realm's typed-array constructors. Each test file runs
 * in its own realm, but native addons (onnxruntime-node) build their typed arrays in the host
 * realm, and the `instanceof Float32Array` checks in onnxruntime's JavaScript then fail. The
 * service runs onnxruntime on its event loop (a thread hop per prediction cost more than the
 * prediction), so the tests must be able to as well.
 */
export default class HostTypedArraysEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const host = globalThis as unknown as Record<string, unknown>;
    for (const name of HOST_GLOBALS) this.global[name] = host[name] as never;
  }
}
