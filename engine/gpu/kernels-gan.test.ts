/**
 * CTGAN's GPU kernels (kernels-gan.ts) and the gradient penalty's graph (neural/penalty.ts), each forward and
 * gradient against the CPU engine (TF.js' cpu backend: its composite batch normalisation, applyActivate,
 * spanCrossEntropySum and gradientPenalty, the latter differentiated twice on the tape) or a plain JS reference.
 * Odd sizes (not multiples of 16 or 256) and strided outputs; small enough for Mesa's software renderer. The on-GPU
 * random numbers ('device' mode) are checked by their distributions and determinism.
 */
import * as tf from '@tensorflow/tfjs';
import { gradientPenalty } from '../synth/neural/ctgan';
import { hostDraws } from '../synth/neural/noise';
import { NeuralRng } from '../synth/neural/rng';
import { applyActivate, GUMBEL_TAU, spanCrossEntropySum } from '../synth/neural/span-ops';
import { mixedFrame } from '../synth/neural/testutil';
import { fitTransformer, Layout } from '../synth/neural/transformer';
import { GAN_ACTIVATE, GAN_BN_GRAD, GAN_BN_GRAD_SUMS, GAN_BN_RELU, GAN_BN_STATS, GAN_COPY_COLUMNS, GAN_DROPOUT, GAN_OUTPUT_GRAD, GAN_RANDOM, ganParams, RANDOM_KIND } from './kernels-gan';
import { LEAKY_SLOPE } from './kernels';
import { recordGradientPenalty } from './neural/penalty';
import { GpuRuntime, Program, StepValues } from './runtime';
import { acquireTestGpu } from './test-device';
import type { AcquiredGpu } from './test-device';

function random(n: number, seed: number, scale = 1): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s / 2 ** 32) * 2 - 1) * scale;
  });
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol = 1e-5): void {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i])));
  expect(worst).toBeLessThan(tol);
}

const STEP: StepValues = { rows: 0, slot: 0, lr: 0, beta1: 0.5, beta2: 0.9, eps: 1e-8, c1: 1, c2: 1 };

describe('CTGAN GPU kernels', () => {
  let gpu: AcquiredGpu;
  let rt: GpuRuntime;
  let layout: Layout;
  const prm = (v: number[]) => rt.tensor(ganParams(v));
  const run = (record: (p: Program) => void) => {
    const p = new Program();
    record(p);
    rt.run(p, STEP);
  };

  beforeAll(async () => {
    await tf.setBackend('cpu');
    gpu = await acquireTestGpu();
    rt = new GpuRuntime(gpu.device);
    layout = fitTransformer(mixedFrame(200, 1), 1).layout;
  });
  afterAll(async () => {
    await rt?.destroy();
    await gpu?.destroy();
  });

  it('copies a column block into a wider row (and adds one back)', async () => {
    const [rows, width, srcW, dstW] = [37, 19, 23, 45];
    const src = random(rows * srcW, 1);
    const init = random(rows * dstW, 2);
    const dst = rt.tensor(init);
    const acc = rt.tensor(init);
    const s = rt.tensor(src);
    run((p) => {
      rt.custom(p, GAN_COPY_COLUMNS, { a: rows, b: width, code: 0 }, [prm([srcW, 4, dstW, 26]), s, dst], rt.linearWorkgroups(rows * width));
      rt.custom(p, GAN_COPY_COLUMNS, { a: rows, b: width, code: 1 }, [prm([srcW, 4, dstW, 26]), s, acc], rt.linearWorkgroups(rows * width));
    });
    const set = init.slice();
    const add = init.slice();
    for (let r = 0; r < rows; r++)
      for (let j = 0; j < width; j++) {
        set[r * dstW + 26 + j] = src[r * srcW + 4 + j];
        add[r * dstW + 26 + j] += src[r * srcW + 4 + j];
      }
    expect(Array.from(await rt.read(dst))).toEqual(Array.from(set));
    expectClose(await rt.read(acc), add, 1e-6);
  });

  it('batch normalisation (batch statistics) + ReLU, forward and gradient, against the CPU composite', async () => {
    const [B, o, stride] = [45, 21, 30];
    const z = random(B * o, 3, 2).map((v, i) => v + (i % o) * 0.1);
    const gamma = random(o, 4).map((v) => 1 + 0.5 * v);
    const beta = random(o, 5, 0.3);
    const dy = random(B * stride, 6);
    const [Z, S, Ga, Be, Y, DY, DG, DB, DZ] = [rt.tensor(z), rt.tensor(4 * o), rt.tensor(gamma), rt.tensor(beta), rt.tensor(B * stride), rt.tensor(dy), rt.tensor(o), rt.tensor(o), rt.tensor(B * o)];
    run((p) => {
      rt.custom(p, GAN_BN_STATS, { a: B, b: o, f0: 1e-5 }, [Z, S], [Math.ceil(o / 16), 1]);
      rt.custom(p, GAN_BN_RELU, { a: B, b: o }, [prm([stride, 0]), Z, S, Ga, Be, Y], rt.linearWorkgroups(B * o));
      rt.custom(p, GAN_BN_GRAD_SUMS, { a: B, b: o }, [prm([stride]), DY, Y, Z, S, DG, DB], [Math.ceil(o / 16), 1]);
      rt.custom(p, GAN_BN_GRAD, { a: B, b: o }, [prm([stride]), DY, Y, Z, S, Ga, DZ], rt.linearWorkgroups(B * o));
    });
    // ctgan.ts's composite form (the CPU engine off wasm), differentiated by the tape.
    const bnRelu = (zt: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => {
      const centred = tf.sub(zt, tf.mean(zt, 0));
      const variance = tf.mean(tf.square(centred), 0);
      return tf.relu(tf.add(tf.mul(centred, tf.mul(tf.rsqrt(tf.add(variance, 1e-5)), g)), b));
    };
    const dyBlock = tf.slice(tf.tensor2d(dy, [B, stride]), [0, 0], [B, o]);
    const want = tf.tidy(() => bnRelu(tf.tensor2d(z, [B, o]), tf.tensor1d(gamma), tf.tensor1d(beta)).dataSync());
    const grads = tf.grads((zt: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(bnRelu(zt, g, b), dyBlock)))([tf.tensor2d(z, [B, o]), tf.tensor1d(gamma), tf.tensor1d(beta)]);
    const y = await rt.read(Y);
    const block = Float32Array.from({ length: B * o }, (_, i) => y[Math.floor(i / o) * stride + (i % o)]);
    expectClose(block, want, 1e-5);
    expect(want.some((v) => v === 0) && want.some((v) => v > 0)).toBe(true);
    expectClose(await rt.read(DZ), grads[0].dataSync(), 1e-5);
    expectClose(await rt.read(DG), grads[1].dataSync(), 1e-5);
    expectClose(await rt.read(DB), grads[2].dataSync(), 1e-5);
  });

  it('output activation (tanh, Gumbel-softmax τ 0.2) into a block of a wider buffer, against applyActivate', async () => {
    const B = 33;
    const soft = layout.dim - layout.nScalar;
    const stride = layout.dim + layout.condDim;
    const raw = random(B * layout.dim, 7, 3);
    const gumbel = hostDraws.gumbel(B * soft, new NeuralRng(17));
    const spans = layout.spans.flatMap((s) => [s.offset, s.width]);
    const out = rt.tensor(2 * B * stride);
    run((p) =>
      rt.custom(
        p,
        GAN_ACTIVATE,
        { a: B, b: layout.dim, c: layout.nScalar, code: layout.spans.length, f0: 1 / GUMBEL_TAU },
        [prm([stride, B, soft, ...spans]), rt.tensor(raw), rt.tensor(gumbel), out],
        rt.linearWorkgroups(B),
      ),
    );
    const want = tf.tidy(() => applyActivate(tf.tensor2d(raw, [B, layout.dim]), layout, new NeuralRng(17)).dataSync());
    const got = await rt.read(out);
    expectClose(
      Float32Array.from({ length: B * layout.dim }, (_, i) => got[(B + Math.floor(i / layout.dim)) * stride + (i % layout.dim)]),
      want,
      1e-5,
    );
  });

  it("output gradient with the conditional cross-entropy, against the CPU tape's", async () => {
    const B = 29;
    const soft = layout.dim - layout.nScalar;
    const stride = layout.dim + layout.condDim;
    const raw = random(B * layout.dim, 8, 2);
    const gumbel = hostDraws.gumbel(B * soft, new NeuralRng(5));
    const dOut = random(B * stride, 9);
    // One conditioned span a row, its target a one-hot inside it (as CondSampler builds them).
    const nSpans = layout.spans.length;
    const mask = new Float32Array(B * nSpans);
    const target = new Float32Array(B * soft);
    for (let r = 0; r < B; r++) {
      const s = r % nSpans;
      const span = layout.spans[s];
      mask[r * nSpans + s] = 1;
      target[r * soft + span.offset - layout.nScalar + (r % span.width)] = 1;
    }
    const spans = layout.spans.flatMap((s) => [s.offset, s.width]);
    const [RAW, Y, DOUT, DRAW, CE] = [rt.tensor(raw), rt.tensor(B * stride), rt.tensor(dOut), rt.tensor(B * layout.dim), rt.tensor(B)];
    run((p) => {
      const dims = { a: B, b: layout.dim, c: layout.nScalar, code: nSpans, f0: 1 / GUMBEL_TAU, f1: 1 / B };
      rt.custom(p, GAN_ACTIVATE, dims, [prm([stride, 0, soft, ...spans]), RAW, rt.tensor(gumbel), Y], rt.linearWorkgroups(B));
      rt.custom(p, GAN_OUTPUT_GRAD, dims, [prm([stride, 1, soft, ...spans]), DOUT, Y, RAW, rt.tensor(target), rt.tensor(mask), DRAW, CE], rt.linearWorkgroups(B));
    });
    const dOutBlock = tf.slice(tf.tensor2d(dOut, [B, stride]), [0, 0], [B, layout.dim]);
    const [t, m] = [tf.tensor2d(target, [B, soft]), tf.tensor2d(mask, [B, nSpans])];
    const loss = (x: tf.Tensor) => tf.add(tf.sum(tf.mul(applyActivate(x as tf.Tensor2D, layout, new NeuralRng(5)), dOutBlock)), tf.div(spanCrossEntropySum(x as tf.Tensor2D, layout, t, m), B));
    const want = tf.grad(loss)(tf.tensor2d(raw, [B, layout.dim]));
    expectClose(await rt.read(DRAW), want.dataSync(), 1e-5);
    const ceSum = (await rt.read(CE)).reduce((a, v) => a + v, 0);
    const wantCe = spanCrossEntropySum(tf.tensor2d(raw, [B, layout.dim]), layout, t, m).dataSync()[0];
    expect(Math.abs(ceSum - wantCe)).toBeLessThan(1e-5 * Math.max(1, Math.abs(wantCe)));
  });

  it('dropout after the leaky ReLU: forward, backward and the broadcast chain start', async () => {
    const [rows, N] = [27, 35];
    const x = random(rows * N, 10);
    const a = random(rows * N, 11);
    const m = hostDraws.dropout(rows * N, 0.5, new NeuralRng(3));
    const w = random(N, 12);
    const [X, A, M, W] = [rt.tensor(x), rt.tensor(a), rt.tensor(m), rt.tensor(w)];
    const outs = [rt.tensor(rows * N), rt.tensor(rows * N), rt.tensor(rows * N)];
    run((p) => [X, X, W].forEach((input, code) => rt.custom(p, GAN_DROPOUT, { a: rows, b: N, code }, [input, M, A, outs[code]], rt.linearWorkgroups(rows * N))));
    const slope = (v: number) => (v > 0 ? 1 : LEAKY_SLOPE);
    expectClose(
      await rt.read(outs[0]),
      Float32Array.from(x, (v, i) => v * m[i]),
      1e-6,
    );
    expectClose(
      await rt.read(outs[1]),
      Float32Array.from(x, (v, i) => v * m[i] * slope(a[i])),
      1e-6,
    );
    expectClose(
      await rt.read(outs[2]),
      Float32Array.from(x, (_, i) => w[i % N] * m[i] * slope(a[i])),
      1e-6,
    );
  });

  it("gradient penalty: value and every weight's gradient against the CPU tape (a gradient of a gradient)", async () => {
    const [G, P, o0, o1] = [9, 37, 20, 17];
    const shapes: Record<string, number[]> = { 'd0.w': [P, o0], 'd0.b': [o0], 'd1.w': [o0, o1], 'd1.b': [o1], 'dout.w': [o1, 1], 'dout.b': [1] };
    const values = Object.fromEntries(
      Object.entries(shapes).map(([n, s], i) => [
        n,
        random(
          s.reduce((x, y) => x * y, 1),
          20 + i,
          1 / Math.sqrt(s[0]),
        ),
      ]),
    );
    const packed = random(2 * G * P, 30);
    const alpha = hostDraws.uniform(G, new NeuralRng(4));
    // CPU: the interpolates as CtganTrainer builds them, then the taped penalty with masks drawn from a stream...
    const vars = Object.fromEntries(Object.entries(values).map(([n, v]) => [n, tf.variable(tf.tensor(v, shapes[n]), true, `gp_${n}`)]));
    const interp = tf.tidy(() => {
      const a = tf.tensor2d(alpha, [G, 1]);
      const both = tf.tensor2d(packed, [2 * G, P]);
      return tf.add(tf.mul(a, tf.slice(both, [0, 0], [G, P])), tf.mul(tf.sub(1, a), tf.slice(both, [G, 0], [G, P]))) as tf.Tensor2D;
    });
    const weightNames = ['d0.w', 'd1.w', 'dout.w'];
    let cpuPenalty = 0;
    const { grads } = tf.variableGrads(
      () => {
        const pen = gradientPenalty((n) => vars[n], 2, interp, new NeuralRng(77));
        cpuPenalty = pen.dataSync()[0];
        return pen;
      },
      weightNames.map((n) => vars[n]),
    );
    // ...GPU: the same masks, drawn from the same stream in the same order.
    const maskRng = new NeuralRng(77);
    const masks = [o0, o1].map((o) => rt.tensor(hostDraws.dropout(G * o, 0.5, maskRng)));
    const weights = Object.fromEntries(Object.entries(values).map(([n, v]) => [n, rt.tensor(v)]));
    const penGrads = Object.fromEntries(Object.entries(values).map(([n, v]) => [n, rt.tensor(v.length)]));
    const losses = rt.tensor(3);
    run((p) =>
      recordGradientPenalty(rt, p, {
        weight: (n) => weights[n],
        grads: (n) => penGrads[n],
        dIn: [P, o0],
        dOut: [o0, o1],
        groups: G,
        packed: rt.tensor(packed),
        alpha: rt.tensor(alpha),
        masks,
        losses,
      }),
    );
    const gpuPenalty = (await rt.read(losses))[2];
    expect(cpuPenalty).toBeGreaterThan(0);
    expect(Math.abs(gpuPenalty - cpuPenalty)).toBeLessThan(1e-5 * cpuPenalty);
    for (const n of weightNames) {
      const want = grads[`gp_${n}`].dataSync();
      expect(want.some((v) => v !== 0)).toBe(true);
      expectClose(await rt.read(penGrads[n]), want, 1e-5);
    }
    // The biases do not enter the input gradient: their penalty gradients stay 0.
    expect(Array.from(await rt.read(penGrads['d0.b'])).every((v) => v === 0)).toBe(true);
    Object.values(vars).forEach((v) => v.dispose());
  });
  it("on-GPU random numbers ('device' mode): their distributions, a strided block, and a function of (key, stream, step)", async () => {
    const [rows, width, stride] = [200, 101, 107];
    const n = rows * width;
    const draw = async (kind: keyof typeof RANDOM_KIND, stream: number, step: number, key = 12345) => {
      const out = rt.tensor(new Float32Array(rows * stride).fill(-7));
      const p = new Program();
      rt.custom(p, GAN_RANDOM, { a: rows, b: width, code: RANDOM_KIND[kind], f0: 0.5 }, [prm([stride, 3, key, stream]), out], rt.linearWorkgroups(n));
      rt.run(p, { ...STEP, slot: step });
      const all = await rt.read(out);
      // Columns outside the block [3, 3 + width) of each row are untouched.
      for (let r = 0; r < rows; r++) for (const j of [0, 1, 2, 3 + width]) if (j < stride) expect(all[r * stride + j]).toBe(-7);
      return Float32Array.from({ length: n }, (_, i) => all[Math.floor(i / width) * stride + 3 + (i % width)]);
    };
    const mean = (v: Float32Array) => v.reduce((a, x) => a + x, 0) / v.length;
    const variance = (v: Float32Array) => {
      const m = mean(v);
      return mean(v.map((x) => (x - m) ** 2));
    };
    const uniform = await draw('uniform', 0, 1);
    expect(uniform.every((u) => u >= 0 && u < 1)).toBe(true);
    expect(Math.abs(mean(uniform) - 0.5)).toBeLessThan(0.01);
    const normal = await draw('normal', 1, 1);
    expect(Math.abs(mean(normal))).toBeLessThan(0.03);
    expect(Math.abs(variance(normal) - 1)).toBeLessThan(0.04);
    // Gumbel(0, 1): mean γ ≈ 0.5772, variance π²/6.
    const gumbel = await draw('gumbel', 2, 1);
    expect(Math.abs(mean(gumbel) - 0.5772)).toBeLessThan(0.04);
    expect(Math.abs(variance(gumbel) - Math.PI ** 2 / 6) / (Math.PI ** 2 / 6)).toBeLessThan(0.06);
    const mask = await draw('dropout', 3, 1);
    expect(mask.every((v) => v === 0 || v === 2)).toBe(true);
    expect(Math.abs(mask.filter((v) => v === 0).length / n - 0.5)).toBeLessThan(0.02);
    // Deterministic in (key, stream, step); another of any of them gives other numbers.
    expect(Array.from(await draw('uniform', 0, 1))).toEqual(Array.from(uniform));
    for (const other of [await draw('uniform', 1, 1), await draw('uniform', 0, 2), await draw('uniform', 0, 1, 54321)]) {
      expect(other.filter((v, i) => v === uniform[i]).length).toBeLessThan(n / 1000);
    }
  });
});
