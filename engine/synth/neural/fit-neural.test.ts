import { spawnSync } from 'node:child_process';
import os from 'node:os';
import type { Frame } from '../../automl';
import { checkpointEpoch } from './fit-core';
import { threadsEnded } from '../../../platform/threads';
import { CANCEL_GRACE_MS, fitNeural } from './fit-neural';
import { NeuralModel, serializeNeural } from './model';
import { sampleNeuralBatches } from './sample';
import { collect, mixedFrame } from './testutil';

const SMALL = { batch_size: 100, pac: 5, embedding_dim: 16, generator_dim: [32, 32], discriminator_dim: [32, 32], seed: 5 };

function epochsOf(messages: string[]): number[] {
  return messages.flatMap((m) => {
    const hit = /^epoch (\d+)\//.exec(m);
    return hit ? [Number(hit[1])] : [];
  });
}

describe('fitNeural (worker thread)', () => {
  let frame: Frame;
  beforeAll(() => {
    frame = mixedFrame(300, 7);
  });

  it('trains in a worker thread with epoch progress, leaving the event loop free', async () => {
    const messages: string[] = [];
    const fractions: number[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const model = await fitNeural('tvae', frame, { epochs: 6, batch_size: 100, embedding_dim: 16, seed: 1 }, { onProgress: (f, m) => (fractions.push(f), messages.push(m)) });
      expect(messages[0]).toMatch(/^training tvae on the (wasm backend \((products on ONNX Runtime, )?\d+ threads?\)|cpu backend|tensorflow backend)$/);
      expect(epochsOf(messages)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(fractions[fractions.length - 1]).toBe(1);
      expect(model.type).toBe('tvae');
      const s = await collect(sampleNeuralBatches(model, 50, { seed: 1 }));
      expect(s.nrows).toBe(50);
    } finally {
      clearInterval(timer);
    }
    // The timer kept firing while the thread trained.
    expect(ticks).toBeGreaterThan(10);
  });

  it('trains on two threads to the same model as on one thread', async () => {
    const fit = async (threads: number) => {
      const messages: string[] = [];
      const model = await fitNeural('ctgan', frame, { ...SMALL, epochs: 2 }, { threads, onProgress: (_f, m) => messages.push(m) });
      return { first: messages[0], bytes: Buffer.from(serializeNeural(model)) };
    };
    const one = await fit(1);
    const two = await fit(2);
    if (one.first.includes('wasm')) {
      expect(one.first).toMatch(/^training ctgan on the wasm backend \((products on ONNX Runtime, )?1 thread\)$/);
      // Threads are capped at the cores.
      const n = Math.min(2, os.availableParallelism());
      expect(two.first).toMatch(new RegExp(`^training ctgan on the wasm backend \\((products on ONNX Runtime, )?${n} threads?\\)$`));
    }
    expect(two.bytes.equals(one.bytes)).toBe(true);
  });

  it('stops promptly on an aborted signal, rejecting with its reason', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const reason = new Error('user cancelled');
    const fit = fitNeural(
      'ctgan',
      frame,
      { ...SMALL, epochs: 5000 },
      {
        signal: controller.signal,
        onProgress: (_f, m) => {
          if (m.startsWith('epoch 2/') && !abortedAt) {
            abortedAt = Date.now();
            controller.abort(reason);
          }
        },
      },
    );
    await expect(fit).rejects.toBe(reason);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    // The cancelled thread ends itself at its next batch, well before the grace period would terminate it.
    await threadsEnded();
    expect(Date.now() - abortedAt).toBeLessThan(CANCEL_GRACE_MS / 3);
    await expect(fitNeural('ctgan', frame, SMALL, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('survives cancels that land inside ONNX Runtime products (the process does not abort)', () => {
    // In a child process, because a failure aborts the process that runs the fits. Eight CTGAN fits are cancelled at
    // staggered moments of their training, where a product is running about a third of the time. When the parent
    // terminated the thread at once, this aborted the child in 3 of 3 runs ("terminate called after throwing an
    // instance of 'Napi::Error'").
    const script = `
      const { fitNeural } = require(${JSON.stringify(require.resolve('./fit-neural'))});
      const { mixedFrame } = require(${JSON.stringify(require.resolve('./testutil'))});
      (async () => {
        const frame = mixedFrame(600, 3);
        for (let i = 0; i < 8; i++) {
          const c = new AbortController();
          let started = false;
          const config = { batch_size: 200, pac: 10, embedding_dim: 64, generator_dim: [256, 256], discriminator_dim: [256, 256], epochs: 10000, seed: i };
          const onProgress = (_f, m) => {
            if (!started && m.startsWith('epoch 1/')) {
              started = true;
              setTimeout(() => c.abort(new Error('stop')), 10 + 23 * i);
            }
          };
          await fitNeural('ctgan', frame, config, { signal: c.signal, onProgress }).then(() => process.stdout.write('finished '), (e) => process.stdout.write(e.message + ' '));
        }
      })();`;
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(out.stderr).not.toMatch(/terminate called/);
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split(' ')).toEqual(Array(8).fill('stop'));
  });

  it('resumes from a checkpoint at the next epoch and ends where an uninterrupted fit ends', async () => {
    const config = { ...SMALL, epochs: 4 };
    const uninterrupted = (await fitNeural('ctgan', frame, config)) as NeuralModel;

    // A first attempt is killed after its epoch-2 checkpoint was saved.
    const controller = new AbortController();
    const saved: Array<{ bytes: Uint8Array; epoch: number }> = [];
    const first = fitNeural('ctgan', frame, config, {
      signal: controller.signal,
      checkpointEverySecs: 0,
      onCheckpoint: async (bytes, epoch) => {
        saved.push({ bytes, epoch });
        if (epoch === 2) controller.abort(new Error('worker killed'));
      },
    });
    await expect(first).rejects.toThrow('worker killed');
    const last = saved[saved.length - 1];
    expect(last.epoch).toBe(2);
    expect(checkpointEpoch(last.bytes)).toBe(2);

    const messages: string[] = [];
    const resumed = (await fitNeural('ctgan', frame, config, { resumeFrom: last.bytes, onProgress: (_f, m) => messages.push(m) })) as NeuralModel;
    expect(epochsOf(messages)).toEqual([3, 4]);
    // Weights, optimizer moments and the random stream were restored: same backend, same result.
    expect(Object.keys(resumed.params.weights)).toEqual(Object.keys(uninterrupted.params.weights));
    for (const [name, t] of Object.entries(uninterrupted.params.weights)) expect(Array.from(resumed.params.weights[name].data)).toEqual(Array.from(t.data));
  });

  it('starts over, with a note, from a checkpoint of another configuration', async () => {
    const saved: Uint8Array[] = [];
    await fitNeural('ctgan', frame, { ...SMALL, epochs: 2 }, { checkpointEverySecs: 0, onCheckpoint: async (bytes) => void saved.push(bytes) });
    expect(saved).toHaveLength(1);
    const messages: string[] = [];
    await fitNeural('ctgan', frame, { ...SMALL, epochs: 2, embedding_dim: 8 }, { resumeFrom: saved[0], onProgress: (_f, m) => messages.push(m) });
    expect(messages.some((m) => m.startsWith('checkpoint not usable'))).toBe(true);
    expect(epochsOf(messages)).toEqual([1, 2]);
  });
});
