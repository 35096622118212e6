/**
 * TVAE's own WGSL kernels (recorded through GpuRuntime.custom; every other op of its graph is a built-in kernel):
 * the reparameterisation, the reconstruction loss with its gradients, the KL term, the latent gradient, a two-input
 * activation gradient and a clamp. Loss sums run in one workgroup in a fixed order, so a step's loss is the same
 * number on every run.
 */
import { KERNEL_HEADER, KernelDef, LINEAR_WORKGROUP } from './kernels';

export interface CustomKernel {
  name: string;
  def: KernelDef;
}

const LINEAR_MAIN = `@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = g.x + g.y * nw.x * ${LINEAR_WORKGROUP}u;`;

/** The tree reduction of `part` (one workgroup) into part[0]. */
const REDUCE = `part[l.x] = s;
  workgroupBarrier();
  for (var w = ${LINEAR_WORKGROUP / 2}u; w > 0u; w = w / 2u) {
    if (l.x < w) { part[l.x] += part[l.x + w]; }
    workgroupBarrier();
  }`;

/** z = eps · exp(logvar / 2) + mu; dims a = rows, b = embedding width. */
export const VAE_REPARAMETERISE: CustomKernel = {
  name: 'vae_reparameterise',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> mu: array<f32>;
@group(0) @binding(3) var<storage, read> lv: array<f32>;
@group(0) @binding(4) var<storage, read> eps: array<f32>;
@group(0) @binding(5) var<storage, read_write> z: array<f32>;
${LINEAR_MAIN}
  if (i >= dimA() * dimB()) { return; }
  z[i] = eps[i] * exp(0.5 * lv[i]) + mu[i];
}`,
  },
};

/**
 * The reconstruction term, as a SUM over the batch, times f0 / rows into losses[step.slot], with its gradients:
 * scalars (x − tanh r)² / (2σ²) + rows · log σ, and every span's cross-entropy logsumexp(r) − Σ x·r.
 * dims a = rows, b = row width D, c = scalars S, code = spans, f0 = the loss factor. `spans` holds (offset, width)
 * pairs as floats. dRec = d(loss)/d(rec) for every cell; dSigma = d(loss)/dσ.
 * Scalars go one column per thread (rows in order), so each thread also has its σ's gradient without a second pass.
 */
export const VAE_RECONSTRUCTION: CustomKernel = {
  name: 'vae_reconstruction',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'rw', 'rw', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> rec: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> sigma: array<f32>;
@group(0) @binding(5) var<storage, read> spans: array<f32>;
@group(0) @binding(6) var<storage, read_write> dRec: array<f32>;
@group(0) @binding(7) var<storage, read_write> dSigma: array<f32>;
@group(0) @binding(8) var<storage, read_write> losses: array<f32>;
var<workgroup> part: array<f32, ${LINEAR_WORKGROUP}>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(local_invocation_id) l: vec3u) {
  let R = dimA(); let D = dims.b; let S = dims.c; let nSpans = dims.code;
  let m = f32(R);
  let scale = dims.f0 / m;
  var s = 0.0;
  for (var j = l.x; j < S; j += ${LINEAR_WORKGROUP}u) {
    let sg = sigma[j];
    let inv = 1.0 / (sg * sg);
    var sq = 0.0;
    for (var r = 0u; r < R; r++) {
      let o = r * D + j;
      let t = tanh_safe(rec[o]);
      let d = x[o] - t;
      sq += d * d;
      dRec[o] = -scale * d * (1.0 - t * t) * inv;
    }
    s += 0.5 * sq * inv + m * log(sg);
    dSigma[j] = scale * (m / sg - sq * inv / sg);
  }
  for (var p = l.x; p < R * nSpans; p += ${LINEAR_WORKGROUP}u) {
    let r = p / nSpans; let k = p % nSpans;
    let o = r * D + u32(spans[2u * k]);
    let w = u32(spans[2u * k + 1u]);
    var mx = rec[o];
    for (var j = 1u; j < w; j++) { mx = max(mx, rec[o + j]); }
    var se = 0.0;
    for (var j = 0u; j < w; j++) { se += exp(rec[o + j] - mx); }
    let lse = mx + log(se);
    s += lse;
    for (var j = 0u; j < w; j++) {
      s -= x[o + j] * rec[o + j];
      dRec[o + j] = scale * (exp(rec[o + j] - mx) / se - x[o + j]);
    }
  }
  ${REDUCE}
  if (l.x == 0u) { losses[step.slot] = part[0] * scale; }
}`,
  },
};

/** Adds the KL divergence to N(0, I), −½ Σ(1 + lv − mu² − e^lv) / rows, to losses[step.slot]; dims a = rows, b = width. */
export const VAE_KL: CustomKernel = {
  name: 'vae_kl',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> mu: array<f32>;
@group(0) @binding(3) var<storage, read> lv: array<f32>;
@group(0) @binding(4) var<storage, read_write> losses: array<f32>;
var<workgroup> part: array<f32, ${LINEAR_WORKGROUP}>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(local_invocation_id) l: vec3u) {
  let R = dimA();
  var s = 0.0;
  for (var i = l.x; i < R * dimB(); i += ${LINEAR_WORKGROUP}u) { let a = lv[i]; let b = mu[i]; s += 1.0 + a - b * b - exp(a); }
  ${REDUCE}
  if (l.x == 0u) { losses[step.slot] += -0.5 * part[0] / f32(R); }
}`,
  },
};

/**
 * The encoder heads' gradients from dz (the decoder's input gradient) plus the KL term's:
 * dMu = dz + mu / rows, dLv = ½ dz · eps · e^(lv/2) + ½ (e^lv − 1) / rows. dims a = rows, b = width.
 */
export const VAE_LATENT_GRADIENT: CustomKernel = {
  name: 'vae_latent_gradient',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'read', 'rw', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> dz: array<f32>;
@group(0) @binding(3) var<storage, read> mu: array<f32>;
@group(0) @binding(4) var<storage, read> lv: array<f32>;
@group(0) @binding(5) var<storage, read> eps: array<f32>;
@group(0) @binding(6) var<storage, read_write> dMu: array<f32>;
@group(0) @binding(7) var<storage, read_write> dLv: array<f32>;
${LINEAR_MAIN}
  let R = dimA();
  if (i >= R * dimB()) { return; }
  let m = f32(R);
  dMu[i] = dz[i] + mu[i] / m;
  dLv[i] = 0.5 * dz[i] * eps[i] * exp(0.5 * lv[i]) + 0.5 * (exp(lv[i]) - 1.0) / m;
}`,
  },
};

/** dZ = (dA + dB) · act'(H), H the activation's output (two heads feeding one layer); dims a = rows, b = width. */
export const SUM_ACTIVATION_GRADIENT: CustomKernel = {
  name: 'sum_act_grad',
  def: {
    bindings: ['uniform', 'uniform', 'read', 'read', 'read', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read> dA: array<f32>;
@group(0) @binding(3) var<storage, read> dB: array<f32>;
@group(0) @binding(4) var<storage, read> H: array<f32>;
@group(0) @binding(5) var<storage, read_write> dZ: array<f32>;
${LINEAR_MAIN}
  if (i >= dimA() * dimB()) { return; }
  dZ[i] = (dA[i] + dB[i]) * activation_slope(H[i], dims.code);
}`,
  },
};

/** p = clamp(p, f0, f1) over dims a values (TVAE's output scales after each step). */
export const CLAMP: CustomKernel = {
  name: 'clamp',
  def: {
    bindings: ['uniform', 'uniform', 'rw'],
    code: /* wgsl */ `${KERNEL_HEADER}
@group(0) @binding(2) var<storage, read_write> p: array<f32>;
${LINEAR_MAIN}
  if (i >= dimA()) { return; }
  p[i] = clamp(p[i], dims.f0, dims.f1);
}`,
  },
};
