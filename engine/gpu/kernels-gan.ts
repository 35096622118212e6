/**
 * CTGAN's own WGSL kernels (recorded through GpuRuntime.custom; the products, bias + activation, column sums and Adam
 * are the built-in kernels): column copies for the generator's residual concatenations, batch normalisation + ReLU
 * forward and backward (batch statistics), the output activation (tanh / Gumbel-softmax) and its gradient fused with
 * the conditional cross-entropy, dropout with the leaky-ReLU slope (forward, backward, and the gradient penalty's
 * linear chain), the penalty itself, the interpolates and the critic's and generator's losses.
 *
 * Integer settings that do not fit the `dims` uniform go in a small u32 tensor `prm` (written once at record time,
 * see `ganParams`). Reductions that produce a loss run in one workgroup in a fixed order, so a step's losses are the
 * same numbers on every run.
 */
import { KERNEL_HEADER, KernelDef, LEAKY_SLOPE, LINEAR_WORKGROUP } from './kernels';

export interface CustomKernel {
  name: string;
  def: KernelDef;
}

const LINEAR_MAIN = `@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = g.x + g.y * nw.x * ${LINEAR_WORKGROUP}u;`;

/** The tree reduction of `part` (one workgroup, `s` each thread's share) into part[0]. */
const REDUCE = `part[l.x] = s;
  workgroupBarrier();
  for (var w = ${LINEAR_WORKGROUP / 2}u; w > 0u; w = w / 2u) {
    if (l.x < w) { part[l.x] += part[l.x + w]; }
    workgroupBarrier();
  }`;

const PRM = '@group(0) @binding(2) var<storage, read> prm: array<u32>;';
const LEAKY_SLOPE_OF = `fn leaky_slope(a: f32) -> f32 { return select(${LEAKY_SLOPE}, 1.0, a > 0.0); }`;

/**
 * dst[r, dstOff + j] = (or +=, code 1) src[r, srcOff + j] for j < width: the residual concatenation [relu(bn(z)), h]
 * forward, and its backward (the passthrough half added to the product's gradient); with rows 1 a flat add.
 * dims a = rows, b = width, code = accumulate; prm = [srcStride, srcOff, dstStride, dstOff].
 */
export const GAN_COPY_COLUMNS: CustomKernel = {
  name: 'gan_copy_columns',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> src: array<f32>;
@group(0) @binding(4) var<storage, read_write> dst: array<f32>;
${LINEAR_MAIN}
  let W = dimB();
  if (i >= dimA() * W) { return; }
  let r = i / W; let j = i % W;
  let v = src[r * prm[0] + prm[1] + j];
  let o = r * prm[2] + prm[3] + j;
  if (dims.code == 1u) { dst[o] += v; } else { dst[o] = v; }
}`,
  },
};

/**
 * Column statistics of z [rows, N]: stats[col] = mean, stats[N + col] = 1/√(biased variance + f0), two passes (stats
 * holds 4N: GAN_BN_GRAD_SUMS adds the gradient sums).
 */
export const GAN_BN_STATS: CustomKernel = {
  name: 'gan_bn_stats',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> z: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
var<workgroup> part: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let R = dimA(); let N = dimB();
  let col = wg.x * 16u + l.x;
  var s = 0.0;
  if (col < N) { for (var r = l.y; r < R; r += 16u) { s += z[r * N + col]; } }
  part[l.y][l.x] = s;
  workgroupBarrier();
  var mean = 0.0;
  for (var j = 0u; j < 16u; j++) { mean += part[j][l.x]; }
  mean = mean / f32(R);
  workgroupBarrier();
  var q = 0.0;
  if (col < N) { for (var r = l.y; r < R; r += 16u) { let d = z[r * N + col] - mean; q += d * d; } }
  part[l.y][l.x] = q;
  workgroupBarrier();
  if (l.y == 0u && col < N) {
    var t = 0.0;
    for (var j = 0u; j < 16u; j++) { t += part[j][l.x]; }
    stats[col] = mean;
    stats[N + col] = 1.0 / sqrt(t / f32(R) + dims.f0);
  }
}`,
  },
};

/** out[r, off + j] = relu(γ (z − mean) rstd + β) with the column statistics; dims a = rows, b = N; prm = [stride, off]. */
export const GAN_BN_RELU: CustomKernel = {
  name: 'gan_bn_relu',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> z: array<f32>;
@group(0) @binding(4) var<storage, read> stats: array<f32>;
@group(0) @binding(5) var<storage, read> gamma: array<f32>;
@group(0) @binding(6) var<storage, read> beta: array<f32>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;
${LINEAR_MAIN}
  let N = dimB();
  if (i >= dimA() * N) { return; }
  let r = i / N; let j = i % N;
  let v = (z[i] - stats[j]) * stats[N + j] * gamma[j] + beta[j];
  out[r * prm[0] + prm[1] + j] = max(v, 0.0);
}`,
  },
};

/**
 * The batch normalisation's parameter gradients: with g = dy · [y > 0] (dy and y read at [r, j] of a row stride
 * prm[0]) and x̂ the normalised z, dβ = Σ_rows g and dγ = Σ_rows g x̂, also kept in stats[2N + j], stats[3N + j] for
 * GAN_BN_GRAD (which then binds 7 storage buffers: WebGPU's default limit is 8). dims a = rows, b = N.
 */
export const GAN_BN_GRAD_SUMS: CustomKernel = {
  name: 'gan_bn_grad_sums',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'rw', 'rw', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> dy: array<f32>;
@group(0) @binding(4) var<storage, read> y: array<f32>;
@group(0) @binding(5) var<storage, read> z: array<f32>;
@group(0) @binding(6) var<storage, read_write> stats: array<f32>;
@group(0) @binding(7) var<storage, read_write> dgamma: array<f32>;
@group(0) @binding(8) var<storage, read_write> dbeta: array<f32>;
var<workgroup> pg: array<array<f32, 16>, 16>;
var<workgroup> px: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let R = dimA(); let N = dimB(); let S = prm[0];
  let col = wg.x * 16u + l.x;
  var a = 0.0;
  var b = 0.0;
  if (col < N) {
    let m = stats[col];
    for (var r = l.y; r < R; r += 16u) {
      let g = select(0.0, dy[r * S + col], y[r * S + col] > 0.0);
      a += g;
      b += g * (z[r * N + col] - m);
    }
  }
  pg[l.y][l.x] = a;
  px[l.y][l.x] = b;
  workgroupBarrier();
  if (l.y == 0u && col < N) {
    var sa = 0.0;
    var sb = 0.0;
    for (var j = 0u; j < 16u; j++) { sa += pg[j][l.x]; sb += px[j][l.x]; }
    let sx = sb * stats[N + col];
    dbeta[col] = sa;
    dgamma[col] = sx;
    stats[2u * N + col] = sa;
    stats[3u * N + col] = sx;
  }
}`,
  },
};

/**
 * dz = γ rstd (g − dβ / R − x̂ dγ / R), g = dy · [y > 0] (dy, y at row stride prm[0]); dβ and dγ from
 * GAN_BN_GRAD_SUMS (stats[2N + j], stats[3N + j]). dims a = rows, b = N.
 */
export const GAN_BN_GRAD: CustomKernel = {
  name: 'gan_bn_grad',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> dy: array<f32>;
@group(0) @binding(4) var<storage, read> y: array<f32>;
@group(0) @binding(5) var<storage, read> z: array<f32>;
@group(0) @binding(6) var<storage, read> stats: array<f32>;
@group(0) @binding(7) var<storage, read> gamma: array<f32>;
@group(0) @binding(8) var<storage, read_write> dz: array<f32>;
${LINEAR_MAIN}
  let R = dimA(); let N = dimB();
  if (i >= R * N) { return; }
  let r = i / N; let j = i % N;
  let s = r * prm[0] + j;
  let gr = select(0.0, dy[s], y[s] > 0.0);
  let rstd = stats[N + j];
  let xhat = (z[i] - stats[j]) * rstd;
  let n = f32(R);
  dz[i] = gamma[j] * rstd * (gr - stats[2u * N + j] / n - xhat * stats[3u * N + j] / n);
}`,
  },
};

/**
 * CTGAN's output activation, one thread a row: tanh on the nScalar scalars, softmax((logit + gumbel) · f0) on every
 * span (f0 = 1 / τ). Writes row r at out[(prm[1] + r) · prm[0] + j] (a block of a wider buffer: the critic's input).
 * dims a = rows, b = dim, c = nScalar, code = spans; prm = [outStride, outRowBase, softWidth, (offset, width)...].
 */
export const GAN_ACTIVATE: CustomKernel = {
  name: 'gan_activate',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> raw: array<f32>;
@group(0) @binding(4) var<storage, read> gumbel: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
${LINEAR_MAIN}
  let D = dimB(); let S = dimC();
  if (i >= dimA()) { return; }
  let r = i * D;
  let o = (prm[1] + i) * prm[0];
  let soft = prm[2];
  for (var j = 0u; j < S; j++) { out[o + j] = tanh_safe(raw[r + j]); }
  for (var s = 0u; s < dims.code; s++) {
    let off = prm[3u + 2u * s]; let w = prm[4u + 2u * s];
    let n0 = i * soft + off - S;
    var mx = -3.4e38;
    for (var k = 0u; k < w; k++) { mx = max(mx, (raw[r + off + k] + gumbel[n0 + k]) * dims.f0); }
    var sum = 0.0;
    for (var k = 0u; k < w; k++) { let e = exp((raw[r + off + k] + gumbel[n0 + k]) * dims.f0 - mx); out[o + off + k] = e; sum += e; }
    for (var k = 0u; k < w; k++) { out[o + off + k] = out[o + off + k] / sum; }
  }
}`,
  },
};

/**
 * The generator's output gradient, one thread a row: from dOut (d loss / d activation) and the activation y (both at
 * row stride prm[0]): dy (1 − y²) on the scalars and y (dy − Σ_span dy y) · f0 on a span (f0 = 1 / τ); then, with the
 * conditional cross-entropy (prm[1] = 1), + (mask_span · softmax(raw) − target) · f1 (f1 = 1 / batch) and the row's
 * Σ mask_span · (logsumexp(raw_span) − Σ target · raw) in ce[r]. dims a = rows, b = dim, c = nScalar, code = spans;
 * prm = [stride, withCond, softWidth, (offset, width)...].
 */
export const GAN_OUTPUT_GRAD: CustomKernel = {
  name: 'gan_output_grad',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'read', 'read', 'rw', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read> dOut: array<f32>;
@group(0) @binding(4) var<storage, read> y: array<f32>;
@group(0) @binding(5) var<storage, read> raw: array<f32>;
@group(0) @binding(6) var<storage, read> tgt: array<f32>;
@group(0) @binding(7) var<storage, read> mask: array<f32>;
@group(0) @binding(8) var<storage, read_write> dRaw: array<f32>;
@group(0) @binding(9) var<storage, read_write> ce: array<f32>;
${LINEAR_MAIN}
  let D = dimB(); let S = dimC();
  if (i >= dimA()) { return; }
  let r = i * D;
  let o = i * prm[0];
  let cond = prm[1] == 1u;
  let soft = prm[2];
  for (var j = 0u; j < S; j++) { let v = y[o + j]; dRaw[r + j] = dOut[o + j] * (1.0 - v * v); }
  var loss = 0.0;
  for (var s = 0u; s < dims.code; s++) {
    let off = prm[3u + 2u * s]; let w = prm[4u + 2u * s];
    var dp = 0.0;
    for (var k = 0u; k < w; k++) { dp += dOut[o + off + k] * y[o + off + k]; }
    for (var k = 0u; k < w; k++) { dRaw[r + off + k] = y[o + off + k] * (dOut[o + off + k] - dp) * dims.f0; }
    if (cond) {
      let m = mask[i * dims.code + s];
      let t0 = i * soft + off - S;
      var mx = -3.4e38;
      for (var k = 0u; k < w; k++) { mx = max(mx, raw[r + off + k]); }
      var se = 0.0;
      for (var k = 0u; k < w; k++) { se += exp(raw[r + off + k] - mx); }
      var picked = 0.0;
      for (var k = 0u; k < w; k++) {
        let x = raw[r + off + k];
        picked += tgt[t0 + k] * x;
        dRaw[r + off + k] += (m * exp(x - mx) / se - tgt[t0 + k]) * dims.f1;
      }
      loss += m * (mx + log(se)) - picked;
    }
  }
  ce[i] = loss;
}`,
  },
};

/**
 * Dropout after the critic's leaky ReLU, element-wise over rows × N (dims a, b), by `code`:
 * 0: out = x · m (forward, x the activation); 1: out = x · m · slope(a) (backward, a the activation before dropout);
 * 2: out = x[col] · m · slope(a) (the penalty chain's start, x the output layer's weight column broadcast over rows).
 */
export const GAN_DROPOUT: CustomKernel = {
  name: 'gan_dropout',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${LEAKY_SLOPE_OF}
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> m: array<f32>;
@group(0) @binding(4) var<storage, read> a: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
${LINEAR_MAIN}
  let N = dimB();
  if (i >= dimA() * N) { return; }
  switch dims.code {
    case 0u: { out[i] = x[i] * m[i]; }
    case 1u: { out[i] = x[i] * m[i] * leaky_slope(a[i]); }
    default: { out[i] = x[i % N] * m[i] * leaky_slope(a[i]); }
  }
}`,
  },
};

/** x̂[g, j] = α_g · real[g, j] + (1 − α_g) · fake[g, j], real the first G rows of `packed`, fake the next G. dims a = G, b = width. */
export const GAN_INTERPOLATE: CustomKernel = {
  name: 'gan_interpolate',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> pk: array<f32>;
@group(0) @binding(3) var<storage, read> alpha: array<f32>;
@group(0) @binding(4) var<storage, read_write> xhat: array<f32>;
${LINEAR_MAIN}
  let G = dimA(); let P = dimB();
  if (i >= G * P) { return; }
  let a = alpha[i / P];
  xhat[i] = a * pk[i] + (1.0 - a) * pk[i + G * P];
}`,
  },
};

/**
 * WGAN-GP's penalty from the critic's input gradient g [G, P] (dims a = G, b = P, f0 = λ), one workgroup a pac group
 * (workgroups folded as rt.linearWorkgroups(G · 256) makes them): with n = √(Σ g² + 1e-12) of its row,
 * c = d penalty / d g = λ · 2 (n − 1) / (n G) · g, and (n − 1)² into rowTerm[row] (GAN_LOSSES code 2 averages them).
 */
export const GAN_PENALTY: CustomKernel = {
  name: 'gan_penalty',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'rw', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> grad: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
@group(0) @binding(4) var<storage, read_write> rowTerm: array<f32>;
var<workgroup> part: array<f32, ${LINEAR_WORKGROUP}>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nw: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let G = dimA(); let P = dimB();
  let g = wg.x + wg.y * nw.x;
  if (g >= G) { return; }
  var s = 0.0;
  for (var j = l.x; j < P; j += ${LINEAR_WORKGROUP}u) { let v = grad[g * P + j]; s += v * v; }
  ${REDUCE}
  let n = sqrt(part[0] + 1e-12);
  let k = dims.f0 * 2.0 * (n - 1.0) / (n * f32(G));
  for (var j = l.x; j < P; j += ${LINEAR_WORKGROUP}u) { c[g * P + j] = k * grad[g * P + j]; }
  if (l.x == 0u) { rowTerm[g] = (n - 1.0) * (n - 1.0); }
}`,
  },
};

/**
 * The step's reported losses from the critic's scores y: code 0, the critic step (y: G real then G fake rows):
 * losses[1] = mean D(fake) − mean D(real); code 1, the generator step (y: G fake rows; ce: `dims.b` per-row
 * cross-entropies, b = 0 without conditions): losses[0] = −mean D(fake) + Σ ce / b; code 2, the penalty (y: GAN_PENALTY's
 * row terms): losses[2] = f0 · mean y. dims a = G. One workgroup.
 */
export const GAN_LOSSES: CustomKernel = {
  name: 'gan_losses',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> y: array<f32>;
@group(0) @binding(3) var<storage, read> ce: array<f32>;
@group(0) @binding(4) var<storage, read_write> losses: array<f32>;
var<workgroup> part: array<f32, ${LINEAR_WORKGROUP}>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(local_invocation_id) l: vec3u) {
  let G = dimA(); let B = dims.b;
  var s = 0.0;
  if (dims.code == 0u) {
    for (var r = l.x; r < G; r += ${LINEAR_WORKGROUP}u) { s += y[G + r] - y[r]; }
  } else if (dims.code == 2u) {
    for (var r = l.x; r < G; r += ${LINEAR_WORKGROUP}u) { s += y[r]; }
  } else {
    for (var r = l.x; r < G; r += ${LINEAR_WORKGROUP}u) { s -= y[r]; }
  }
  ${REDUCE}
  let d = part[0] / f32(G);
  workgroupBarrier();
  s = 0.0;
  if (dims.code == 1u) { for (var r = l.x; r < B; r += ${LINEAR_WORKGROUP}u) { s += ce[r]; } }
  ${REDUCE}
  if (l.x == 0u) {
    switch dims.code {
      case 0u: { losses[1] = d; }
      case 2u: { losses[2] = dims.f0 * d; }
      default: { losses[0] = d + select(0.0, part[0] / f32(B), B > 0u); }
    }
  }
}`,
  },
};

/** A u32 settings array as the float tensor data `prm` binds (the bits travel unchanged). */
export function ganParams(values: number[]): Float32Array {
  const u = Uint32Array.from(values.map((v) => v >>> 0));
  return new Float32Array(u.buffer);
}

/** What GAN_RANDOM draws (dims.code). */
export const RANDOM_KIND = { uniform: 0, normal: 1, gumbel: 2, dropout: 3 } as const;

/**
 * The on-GPU random numbers of a step (the trainers' `random: 'device'` mode): value i of a rows × width block (written
 * at out[r · prm[0] + prm[1] + j]) is a function of (key prm[2], stream prm[3], step.slot = the step number, i) through
 * a PCG hash, so a step's numbers do not depend on how the work is split, and a resumed fit (same key, same step count)
 * draws what an uninterrupted one would. Kinds (dims.code): uniform [0, 1); standard normal (Box-Muller); Gumbel(0, 1)
 * as noise.ts (−log(−log U), U kept off 0 and 1); an inverted-dropout mask (0 with probability f0, else 1 / (1 − f0)).
 * dims a = rows, b = width.
 */
export const GAN_RANDOM: CustomKernel = {
  name: 'gan_random',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
${PRM}
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
fn pcg(v: u32) -> u32 {
  let s = v * 747796405u + 2891336453u;
  let w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
  return (w >> 22u) ^ w;
}
// 24 random bits as a float in [0, 1).
fn unit(h: u32) -> f32 { return f32(h >> 8u) * (1.0 / 16777216.0); }
${LINEAR_MAIN}
  let W = dimB();
  if (i >= dimA() * W) { return; }
  let base = pcg(pcg(prm[2] ^ pcg(prm[3])) + step.slot);
  let h1 = pcg(base + 2u * i);
  let u = unit(h1);
  var v = u;
  switch dims.code {
    case 1u: {
      let u1 = 1.0 - u;
      let u2 = unit(pcg(h1 ^ (base + 2u * i + 1u)));
      v = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    }
    case 2u: { v = -log(-log(1e-10 + u * (1.0 - 1e-7 - 1e-10))); }
    case 3u: { v = select(0.0, 1.0 / (1.0 - dims.f0), u >= dims.f0); }
    default: {}
  }
  out[(i / W) * prm[0] + prm[1] + i % W] = v;
}`,
  },
};
