import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Runs `initDeepLearningBackend({ threads })` in a fresh process (the pool is made once per thread) and a product. */
function productOn(threads: number): { backend: string; threads: number; sum: number; first: number[] } {
  const train = path.join(__dirname, 'train.js');
  const script = `
    const tf = require('@tensorflow/tfjs');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    require(${JSON.stringify(train)}).initDeepLearningBackend({ threads: ${threads} }).then((backend) => {
      const a = tf.tensor2d(Float32Array.from({ length: 300 * 200 }, (_, i) => Math.sin(i)), [300, 200]);
      const b = tf.tensor2d(Float32Array.from({ length: 200 * 100 }, (_, i) => Math.cos(i)), [200, 100]);
      const y = tf.matMul(a, b).dataSync();
      process.stdout.write(JSON.stringify({ backend, threads: wasm.getThreadsCount(), sum: y.reduce((s, v) => s + v, 0), first: Array.from(y.slice(0, 5)) }));
      process.exit(0);
    });`;
  const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

describe('wasm backend threads', () => {
  it('starts the pthread build under Node with the threads asked for, and multiplies exactly as one thread does', () => {
    const one = productOn(1);
    const two = productOn(2);
    expect(one).toMatchObject({ backend: 'wasm', threads: 1 });
    expect(two).toMatchObject({ backend: 'wasm', threads: 2 });
    expect(two.first).toEqual(one.first);
    expect(two.sum).toBe(one.sum);
  });
});
