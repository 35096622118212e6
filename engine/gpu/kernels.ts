/// <reference types="@webgpu/types" />
/**
 * The WGSL kernels of the static-graph engine and their pipelines, made once per device.
 *
 * Every kernel binds the same two uniforms first: `step` (written once per step: the batch's row count, the loss slot
 * and Adam's per-step factors) and `dims` (written once when the op is recorded: its shape). A dimension flagged as
 * "rows" is read from `step.rows`, so one recorded step serves a full batch and a short last batch alike: the
 * dispatch is sized for the capacity and the extra invocations return early.
 */

export type ActivationKind = 'identity' | 'relu' | 'leaky_relu' | 'tanh' | 'sigmoid';
export type LossKind = 'mse' | 'bce_logits' | 'softmax_ce';

/** Leaky ReLU's slope below zero (CTGAN's discriminator). */
export const LEAKY_SLOPE = 0.2;

const ACTIVATION_CODE: Record<ActivationKind, number> = { identity: 0, relu: 1, leaky_relu: 2, tanh: 3, sigmoid: 4 };
const LOSS_CODE: Record<LossKind, number> = { mse: 0, bce_logits: 1, softmax_ce: 2 };

/** Flags in `dims.flags`: which of a, b, c is the batch's row count. */
export const ROWS_A = 1;
export const ROWS_B = 2;
export const ROWS_C = 4;

export const TILE = 16;
/** Threads of the one-dimensional kernels (Adam, element-wise passes, the losses' single workgroup). */
export const LINEAR_WORKGROUP = 256;

/** The uniforms (`step`, `dims`) and helpers (dimA/B/C, activate, activation_slope, tanh_safe) every kernel starts with. */
export const KERNEL_HEADER = /* wgsl */ `
struct Step { rows: u32, slot: u32, lr: f32, beta1: f32, beta2: f32, eps: f32, c1: f32, c2: f32 }
struct Dims { a: u32, b: u32, c: u32, flags: u32, f0: f32, f1: f32, code: u32, pad: u32 }
@group(0) @binding(0) var<uniform> step: Step;
@group(0) @binding(1) var<uniform> dims: Dims;
fn dimA() -> u32 { return select(dims.a, step.rows, (dims.flags & 1u) != 0u); }
fn dimB() -> u32 { return select(dims.b, step.rows, (dims.flags & 2u) != 0u); }
fn dimC() -> u32 { return select(dims.c, step.rows, (dims.flags & 4u) != 0u); }
// tanh written with exp(-2|z|): some drivers' tanh() returns NaN for large |z|.
fn tanh_safe(z: f32) -> f32 { let e = exp(-2.0 * abs(z)); return sign(z) * (1.0 - e) / (1.0 + e); }
fn activate(z: f32, code: u32) -> f32 {
  switch code {
    case 1u: { return max(z, 0.0); }
    case 2u: { return select(${LEAKY_SLOPE} * z, z, z > 0.0); }
    case 3u: { return tanh_safe(z); }
    case 4u: { return 1.0 / (1.0 + exp(-z)); }
    default: { return z; }
  }
}
// The derivative from the activation's OUTPUT h, so the forward pass keeps only h.
fn activation_slope(h: f32, code: u32) -> f32 {
  switch code {
    case 1u: { return select(0.0, 1.0, h > 0.0); }
    case 2u: { return select(${LEAKY_SLOPE}, 1.0, h > 0.0); }
    case 3u: { return 1.0 - h * h; }
    case 4u: { return h * (1.0 - h); }
    default: { return 1.0; }
  }
}
`;
const HEADER = KERNEL_HEADER;

export type MatmulEpilogue = 'none' | 'bias_act' | 'act_grad';

/**
 * C[M×N] = op(A)·op(B), op a transpose when asked; dims a=M, b=N, c=K. 16×16 tiles in workgroup memory, loaded so
 * that neighbouring threads read neighbouring floats whichever operand is transposed. Epilogues: `bias_act`
 * C = act(acc + bias[col]) (a layer's forward); `act_grad` C = acc · act'(H[row, col]) (the gradient through the
 * previous layer's activation, H its output).
 */
function matmulSource(transA: boolean, transB: boolean, epilogue: MatmulEpilogue): string {
  const loadA = transA ? 'A[k * M + r]' : 'A[r * K + k]';
  const loadB = transB ? 'B[c * K + k]' : 'B[k * N + c]';
  // Transposed operands swap which thread index walks memory, then store transposed into the tile.
  const aTile = transA
    ? `{ let r = wg.y * 16u + l.x; let k = t + l.y; var v = 0.0; if (r < M && k < K) { v = ${loadA}; } tA[l.x][l.y] = v; }`
    : `{ let r = wg.y * 16u + l.y; let k = t + l.x; var v = 0.0; if (r < M && k < K) { v = ${loadA}; } tA[l.y][l.x] = v; }`;
  const bTile = transB
    ? `{ let c = wg.x * 16u + l.y; let k = t + l.x; var v = 0.0; if (c < N && k < K) { v = ${loadB}; } tB[l.x][l.y] = v; }`
    : `{ let c = wg.x * 16u + l.x; let k = t + l.y; var v = 0.0; if (c < N && k < K) { v = ${loadB}; } tB[l.y][l.x] = v; }`;
  const extra = epilogue === 'none' ? '' : '@group(0) @binding(5) var<storage, read> E: array<f32>;';
  const store =
    epilogue === 'bias_act'
      ? 'C[row * N + col] = activate(acc + E[col], dims.code);'
      : epilogue === 'act_grad'
        ? 'C[row * N + col] = acc * activation_slope(E[row * N + col], dims.code);'
        : 'C[row * N + col] = acc;';
  return /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
${extra}
var<workgroup> tA: array<array<f32, 16>, 16>;
var<workgroup> tB: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let M = dimA(); let N = dimB(); let K = dimC();
  let row = wg.y * 16u + l.y; let col = wg.x * 16u + l.x;
  var acc = 0.0;
  for (var t = 0u; t < K; t += 16u) {
    ${aTile}
    ${bTile}
    workgroupBarrier();
    for (var k = 0u; k < 16u; k++) { acc += tA[l.y][k] * tB[k][l.x]; }
    workgroupBarrier();
  }
  if (row < M && col < N) { ${store} }
}`;
}

/** Y[rows×N] = act(X + bias[col]); dims a=rows, b=N. */
const BIAS_ACT = /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> Y: array<f32>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = g.x + g.y * nw.x * ${LINEAR_WORKGROUP}u;
  let N = dimB();
  if (i >= dimA() * N) { return; }
  Y[i] = activate(X[i] + bias[i % N], dims.code);
}`;

/** dZ = dH · act'(H) from the activation's output H; dims a = element count. */
const ACT_GRAD = /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read> dH: array<f32>;
@group(0) @binding(3) var<storage, read> H: array<f32>;
@group(0) @binding(4) var<storage, read_write> dZ: array<f32>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = g.x + g.y * nw.x * ${LINEAR_WORKGROUP}u;
  if (i >= dimA() * dimB()) { return; }
  dZ[i] = dH[i] * activation_slope(H[i], dims.code);
}`;

/** out[col] = Σ_rows X[row, col] (bias gradients); dims a=rows, b=N. 16 columns a workgroup, 16 lanes a column. */
const COLUMN_SUMS = /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
var<workgroup> part: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let R = dimA(); let N = dimB();
  let col = wg.x * 16u + l.x;
  var s = 0.0;
  if (col < N) { for (var r = l.y; r < R; r += 16u) { s += X[r * N + col]; } }
  part[l.y][l.x] = s;
  workgroupBarrier();
  if (l.y == 0u && col < N) {
    var t = 0.0;
    for (var j = 0u; j < 16u; j++) { t += part[j][l.x]; }
    out[col] = t;
  }
}`;

/**
 * A mean loss over the batch and its gradient, in one workgroup (a fixed reduction order: the same sum every run).
 * dims a=rows, b=K (outputs a row), code = the loss. `grad` gets d(mean loss)/d(prediction); the mean goes to
 * losses[step.slot] when training, or is added (as a sum) to losses[0] when evaluating.
 * mse: mean (p − y)²; bce_logits: mean max(z,0) − z·y + log(1 + e^−|z|) (TF's sigmoid cross-entropy);
 * softmax_ce: mean over rows of −Σ y·log softmax(z).
 */
function lossSource(evaluate: boolean): string {
  const finish = evaluate ? 'losses[0] += part[0];' : 'losses[step.slot] = part[0] / count;';
  const writeGrad = evaluate ? '' : 'grad[i] = g / count;';
  const writeRowGrad = evaluate ? '' : 'grad[o + j] = (exp(z[o + j] - mx) / se - y[o + j]) / count;';
  return /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read> z: array<f32>;
@group(0) @binding(3) var<storage, read> y: array<f32>;
@group(0) @binding(4) var<storage, read_write> grad: array<f32>;
@group(0) @binding(5) var<storage, read_write> losses: array<f32>;
var<workgroup> part: array<f32, ${LINEAR_WORKGROUP}>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(local_invocation_id) l: vec3u) {
  let R = dimA(); let K = dimB();
  var s = 0.0;
  var count = f32(R * K);
  if (dims.code == 2u) {
    count = f32(R);
    for (var r = l.x; r < R; r += ${LINEAR_WORKGROUP}u) {
      let o = r * K;
      var mx = z[o];
      for (var j = 1u; j < K; j++) { mx = max(mx, z[o + j]); }
      var se = 0.0;
      for (var j = 0u; j < K; j++) { se += exp(z[o + j] - mx); }
      let lse = mx + log(se);
      for (var j = 0u; j < K; j++) { s -= y[o + j] * (z[o + j] - lse); ${writeRowGrad} }
    }
  } else {
    for (var i = l.x; i < R * K; i += ${LINEAR_WORKGROUP}u) {
      let p = z[i]; let t = y[i];
      var g = 0.0;
      if (dims.code == 1u) {
        s += max(p, 0.0) - p * t + log(1.0 + exp(-abs(p)));
        g = 1.0 / (1.0 + exp(-p)) - t;
      } else {
        s += (p - t) * (p - t);
        g = 2.0 * (p - t);
      }
      ${writeGrad}
    }
  }
  part[l.x] = s;
  workgroupBarrier();
  for (var w = ${LINEAR_WORKGROUP / 2}u; w > 0u; w = w / 2u) {
    if (l.x < w) { part[l.x] += part[l.x + w]; }
    workgroupBarrier();
  }
  if (l.x == 0u) { ${finish} }
}`;
}

/**
 * Adam over a flat parameter buffer, TF.js's update: m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g²,
 * p ← p − lr · (m / c1) / (√(v / c2) + ε) with c1 = 1 − β1^t, c2 = 1 − β2^t from `step`. The L1/L2 penalties'
 * gradients (l1·sign(p) + 2·l2·p; dims f0, f1) are added where `decay` is 1 (weights, not biases). dims a = count.
 */
const ADAM = /* wgsl */ `${HEADER}
@group(0) @binding(2) var<storage, read_write> p: array<f32>;
@group(0) @binding(3) var<storage, read> grad: array<f32>;
@group(0) @binding(4) var<storage, read_write> m: array<f32>;
@group(0) @binding(5) var<storage, read_write> v: array<f32>;
@group(0) @binding(6) var<storage, read> decay: array<f32>;
@compute @workgroup_size(${LINEAR_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = gid.x + gid.y * nw.x * ${LINEAR_WORKGROUP}u;
  if (i >= dimA()) { return; }
  let w = p[i];
  let g = grad[i] + decay[i] * (dims.f0 * sign(w) + 2.0 * dims.f1 * w);
  let m1 = step.beta1 * m[i] + (1.0 - step.beta1) * g;
  let v1 = step.beta2 * v[i] + (1.0 - step.beta2) * g * g;
  m[i] = m1;
  v[i] = v1;
  p[i] = w - step.lr * ((m1 / step.c1) / (sqrt(v1 / step.c2) + step.eps));
}`;

export type BindingKind = 'uniform' | 'read' | 'rw';

export interface KernelDef {
  code: string;
  /** Bindings 0.. in order; 0 and 1 are always the step and dims uniforms. */
  bindings: BindingKind[];
}

const U: BindingKind[] = ['uniform', 'uniform'];

export type KernelName = `matmul_${'n' | 't'}${'n' | 't'}_${MatmulEpilogue}` | 'bias_act' | 'act_grad' | 'column_sums' | 'loss_train' | 'loss_eval' | 'adam';

function kernelDef(name: KernelName): KernelDef {
  const mm = /^matmul_([nt])([nt])_(none|bias_act|act_grad)$/.exec(name);
  if (mm) {
    const epilogue = mm[3] as MatmulEpilogue;
    return { code: matmulSource(mm[1] === 't', mm[2] === 't', epilogue), bindings: [...U, 'read', 'read', 'rw', ...(epilogue === 'none' ? [] : (['read'] as BindingKind[]))] };
  }
  switch (name) {
    case 'bias_act':
      return { code: BIAS_ACT, bindings: [...U, 'read', 'read', 'rw'] };
    case 'act_grad':
      return { code: ACT_GRAD, bindings: [...U, 'read', 'read', 'rw'] };
    case 'column_sums':
      return { code: COLUMN_SUMS, bindings: [...U, 'read', 'rw'] };
    case 'loss_train':
      return { code: lossSource(false), bindings: [...U, 'read', 'read', 'rw', 'rw'] };
    case 'loss_eval':
      return { code: lossSource(true), bindings: [...U, 'read', 'read', 'rw', 'rw'] };
    case 'adam':
      return { code: ADAM, bindings: [...U, 'rw', 'read', 'rw', 'rw', 'read'] };
  }
  throw new Error(`unknown kernel ${name as string}`);
}

export interface Kernel {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

/** Pipelines with explicit layouts ('auto' would drop a binding a variant does not read), made once per device. */
export class KernelLibrary {
  private readonly made = new Map<string, Kernel>();
  constructor(private readonly device: GPUDevice) {}

  /** A built-in kernel, or (with `custom`) a model's own kernel (its code starts with KERNEL_HEADER), made once. */
  get(name: KernelName): Kernel;
  get(name: string, custom: KernelDef): Kernel;
  get(name: string, custom?: KernelDef): Kernel {
    let k = this.made.get(name);
    if (!k) {
      const def = custom ?? kernelDef(name as KernelName);
      const layout = this.device.createBindGroupLayout({
        label: name,
        entries: def.bindings.map((b, binding) => ({
          binding,
          visibility: 0x4 /* GPUShaderStage.COMPUTE */,
          buffer: { type: b === 'uniform' ? 'uniform' : b === 'read' ? 'read-only-storage' : 'storage' },
        })),
      });
      const module = this.device.createShaderModule({ label: name, code: def.code });
      const pipeline = this.device.createComputePipeline({
        label: name,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: 'main' },
      });
      k = { pipeline, layout };
      this.made.set(name, k);
    }
    return k;
  }
}

export function activationCode(a: ActivationKind): number {
  return ACTIVATION_CODE[a];
}
export function lossCode(l: LossKind): number {
  return LOSS_CODE[l];
}
