/// <reference types="@webgpu/types" />
/**
 * The static-graph runtime: tensors (float32 ranges of GPU buffers), ops recorded once into a Program (pipeline, bind
 * group, workgroup counts, all made at record time), and a step that writes its inputs and submits the whole Program
 * as ONE command buffer. Nothing is created per step but the command buffer itself.
 */
import { ActivationKind, KernelDef, KernelLibrary, KernelName, LINEAR_WORKGROUP, LossKind, MatmulEpilogue, ROWS_A, ROWS_B, ROWS_C, TILE, activationCode, lossCode } from './kernels';

// The WebGPU spec's bits (Dawn's globals are not installed on globalThis).
const STORAGE = 0x80;
const UNIFORM = 0x40;
const COPY_SRC = 0x4;
const COPY_DST = 0x8;
const MAP_READ = 0x1;
const MAP_MODE_READ = 0x1;

/** A float32 range of a GPU buffer; `offset` (in floats) keeps the device's storage-offset alignment. */
export interface Tensor {
  buffer: GPUBuffer;
  offset: number;
  length: number;
}

/** The per-step values every kernel reads (see kernels.ts, `Step`). */
export interface StepValues {
  rows: number;
  slot: number;
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  /** 1 − β1^t and 1 − β2^t. */
  c1: number;
  c2: number;
}

interface Dispatch {
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  workgroups: [number, number];
}

/** A dispatch's shape uniform: a, b, c (each fixed or the batch's rows), two floats and a code. */
export interface DispatchDims {
  a: Dim;
  b?: Dim;
  c?: Dim;
  f0?: number;
  f1?: number;
  code?: number;
}

/** A dimension is either fixed or the batch's row count (capacity `rows` at record time). */
export type Dim = number | { rows: number };

function dimValue(d: Dim): number {
  return typeof d === 'number' ? d : d.rows;
}

/** Workgroups for `count` linear invocations, folded into a second dimension past the per-dimension limit. */
function linearGrid(count: number, maxPerDim: number): [number, number] {
  const groups = Math.max(1, Math.ceil(count / LINEAR_WORKGROUP));
  if (groups <= maxPerDim) return [groups, 1];
  const x = maxPerDim;
  return [x, Math.ceil(groups / x)];
}

export class GpuRuntime {
  readonly kernels: KernelLibrary;
  /** The step uniform every op binds; written by `run`. */
  readonly stepBuffer: GPUBuffer;
  private readonly alignFloats: number;
  private readonly maxPerDim: number;
  private readonly owned: GPUBuffer[] = [];

  constructor(readonly device: GPUDevice) {
    this.kernels = new KernelLibrary(device);
    this.alignFloats = Math.max(1, device.limits.minStorageBufferOffsetAlignment / 4);
    this.maxPerDim = device.limits.maxComputeWorkgroupsPerDimension;
    this.stepBuffer = this.createBuffer(32, UNIFORM | COPY_DST, 'step');
  }

  private createBuffer(bytes: number, usage: number, label?: string): GPUBuffer {
    const b = this.device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage, label });
    this.owned.push(b);
    return b;
  }

  /** A new tensor, zero-filled, or holding `data`. */
  tensor(lengthOrData: number | Float32Array, label?: string): Tensor {
    const length = typeof lengthOrData === 'number' ? lengthOrData : lengthOrData.length;
    const buffer = this.createBuffer(length * 4, STORAGE | COPY_DST | COPY_SRC, label);
    const t = { buffer, offset: 0, length };
    if (typeof lengthOrData !== 'number') this.write(t, lengthOrData);
    return t;
  }

  /** One buffer holding several tensors, each starting at an aligned offset (so one kernel can sweep them all). */
  packed(lengths: number[], label?: string): { whole: Tensor; parts: Tensor[] } {
    const offsets: number[] = [];
    let end = 0;
    for (const n of lengths) {
      offsets.push(end);
      end += Math.ceil(n / this.alignFloats) * this.alignFloats;
    }
    const whole = this.tensor(end, label);
    return { whole, parts: lengths.map((length, i) => ({ buffer: whole.buffer, offset: offsets[i], length })) };
  }

  write(t: Tensor, data: Float32Array, floatOffset = 0): void {
    if (floatOffset + data.length > t.length) throw new Error(`write of ${data.length} floats past a tensor of ${t.length}`);
    this.device.queue.writeBuffer(t.buffer, (t.offset + floatOffset) * 4, data.buffer, data.byteOffset, data.byteLength);
  }

  /** Copies a tensor back (waits for the queue). */
  async read(t: Tensor): Promise<Float32Array> {
    const staging = this.device.createBuffer({ size: Math.max(16, Math.ceil((t.length * 4) / 16) * 16), usage: MAP_READ | COPY_DST });
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(t.buffer, t.offset * 4, staging, 0, t.length * 4);
    this.device.queue.submit([enc.finish()]);
    await staging.mapAsync(MAP_MODE_READ);
    const out = new Float32Array(staging.getMappedRange().slice(0, t.length * 4));
    staging.unmap();
    staging.destroy();
    return out;
  }

  writeStep(v: StepValues): void {
    const data = new ArrayBuffer(32);
    const u = new Uint32Array(data);
    const f = new Float32Array(data);
    u[0] = v.rows;
    u[1] = v.slot;
    f[2] = v.lr;
    f[3] = v.beta1;
    f[4] = v.beta2;
    f[5] = v.eps;
    f[6] = v.c1;
    f[7] = v.c2;
    this.device.queue.writeBuffer(this.stepBuffer, 0, data);
  }

  /**
   * Records a model's own kernel (see KernelLibrary.get; bindings 2.. are `tensors` in order), for graphs whose ops
   * are not among the built-in ones (engine/gpu/neural). `workgroups`: from `linearWorkgroups` or the kernel's tiling.
   */
  custom(p: Program, kernel: { name: string; def: KernelDef }, dims: DispatchDims, tensors: Tensor[], workgroups: [number, number]): void {
    p.push(this.dispatch(kernel.name, dims, tensors, workgroups, kernel.def));
  }

  /** Workgroups for `count` invocations of a LINEAR_WORKGROUP-wide kernel (index: g.x + g.y * nw.x * LINEAR_WORKGROUP). */
  linearWorkgroups(count: number): [number, number] {
    return linearGrid(count, this.maxPerDim);
  }

  /** Records one dispatch: its dims uniform and bind group are made now, once. */
  private dispatch(kernel: KernelName | string, dims: DispatchDims, tensors: Tensor[], workgroups: [number, number], custom?: KernelDef): Dispatch {
    const { pipeline, layout } = custom ? this.kernels.get(kernel, custom) : this.kernels.get(kernel as KernelName);
    const data = new ArrayBuffer(32);
    const u = new Uint32Array(data);
    const f = new Float32Array(data);
    const flags = (typeof dims.a === 'object' ? ROWS_A : 0) | (typeof dims.b === 'object' ? ROWS_B : 0) | (typeof dims.c === 'object' ? ROWS_C : 0);
    u[0] = dimValue(dims.a);
    u[1] = dims.b === undefined ? 1 : dimValue(dims.b);
    u[2] = dims.c === undefined ? 1 : dimValue(dims.c);
    u[3] = flags;
    f[4] = dims.f0 ?? 0;
    f[5] = dims.f1 ?? 0;
    u[6] = dims.code ?? 0;
    const dimsBuffer = this.createBuffer(32, UNIFORM | COPY_DST, `${kernel} dims`);
    this.device.queue.writeBuffer(dimsBuffer, 0, data);
    const bindGroup = this.device.createBindGroup({
      label: kernel,
      layout,
      entries: [
        { binding: 0, resource: { buffer: this.stepBuffer } },
        { binding: 1, resource: { buffer: dimsBuffer } },
        ...tensors.map((t, i) => ({ binding: i + 2, resource: { buffer: t.buffer, offset: t.offset * 4, size: Math.max(4, t.length * 4) } })),
      ],
    });
    return { pipeline, bindGroup, workgroups };
  }

  /**
   * C[M×N] = op(A)·op(B) (K the shared dimension), with an optional epilogue: `bias_act` (extra = bias, act applied)
   * or `act_grad` (extra = the activation's output H; C = acc·act'(H)).
   */
  matmul(p: Program, o: { a: Tensor; b: Tensor; c: Tensor; M: Dim; N: Dim; K: Dim; transA?: boolean; transB?: boolean; epilogue?: MatmulEpilogue; extra?: Tensor; activation?: ActivationKind }): void {
    const epilogue = o.epilogue ?? 'none';
    if ((epilogue === 'none') !== (o.extra === undefined)) throw new Error('matmul: an epilogue needs its extra tensor, and only then');
    const name = `matmul_${o.transA ? 't' : 'n'}${o.transB ? 't' : 'n'}_${epilogue}` as KernelName;
    const tensors = [o.a, o.b, o.c, ...(o.extra ? [o.extra] : [])];
    const grid: [number, number] = [Math.ceil(dimValue(o.N) / TILE), Math.ceil(dimValue(o.M) / TILE)];
    p.push(this.dispatch(name, { a: o.M, b: o.N, c: o.K, code: activationCode(o.activation ?? 'identity') }, tensors, grid));
  }

  /** Y = act(X + bias) over rows × N. */
  biasActivation(p: Program, o: { x: Tensor; bias: Tensor; y: Tensor; rows: Dim; N: number; activation: ActivationKind }): void {
    p.push(this.dispatch('bias_act', { a: o.rows, b: o.N, code: activationCode(o.activation) }, [o.x, o.bias, o.y], linearGrid(dimValue(o.rows) * o.N, this.maxPerDim)));
  }

  /** dZ = dH · act'(H), H the activation's output, over rows × N. */
  activationGradient(p: Program, o: { dh: Tensor; h: Tensor; dz: Tensor; rows: Dim; N: number; activation: ActivationKind }): void {
    p.push(this.dispatch('act_grad', { a: o.rows, b: o.N, code: activationCode(o.activation) }, [o.dh, o.h, o.dz], linearGrid(dimValue(o.rows) * o.N, this.maxPerDim)));
  }

  /** out[col] = Σ_rows x[row, col]. */
  columnSums(p: Program, o: { x: Tensor; out: Tensor; rows: Dim; N: number }): void {
    p.push(this.dispatch('column_sums', { a: o.rows, b: o.N }, [o.x, o.out], [Math.ceil(o.N / TILE), 1]));
  }

  /**
   * The mean loss of predictions z against targets y (rows × K). Training: grad = d(mean)/dz and the mean into
   * losses[step.slot]. Evaluating: the SUM added into losses[0] (grad untouched), for a mean over many chunks.
   */
  loss(p: Program, o: { z: Tensor; y: Tensor; grad: Tensor; losses: Tensor; rows: Dim; K: number; loss: LossKind; evaluate?: boolean }): void {
    p.push(this.dispatch(o.evaluate ? 'loss_eval' : 'loss_train', { a: o.rows, b: o.K, code: lossCode(o.loss) }, [o.z, o.y, o.grad, o.losses], [1, 1]));
  }

  /** One Adam update of `params` (l1/l2 penalties where decay is 1). */
  adam(p: Program, o: { params: Tensor; grad: Tensor; m: Tensor; v: Tensor; decay: Tensor; l1?: number; l2?: number }): void {
    const n = o.params.length;
    p.push(this.dispatch('adam', { a: n, f0: o.l1 ?? 0, f1: o.l2 ?? 0 }, [o.params, o.grad, o.m, o.v, o.decay], linearGrid(n, this.maxPerDim)));
  }

  /** Submits the program as one command buffer (after writing the step uniform, when given). */
  run(p: Program, step?: StepValues): void {
    if (step) this.writeStep(step);
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (const d of p.dispatches) {
      pass.setPipeline(d.pipeline);
      pass.setBindGroup(0, d.bindGroup);
      pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1]);
    }
    pass.end();
    this.device.queue.submit([enc.finish()]);
  }

  /** Waits until everything submitted so far has run. */
  async idle(): Promise<void> {
    await this.device.queue.onSubmittedWorkDone();
  }

  /** Releases every buffer, once the submitted work is done (destroying mid-work crashes Dawn's GL backend). */
  async destroy(): Promise<void> {
    await this.idle();
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }
}

/** A recorded sequence of dispatches, replayed as one compute pass. */
export class Program {
  readonly dispatches: Dispatch[] = [];
  push(d: Dispatch): void {
    this.dispatches.push(d);
  }
}
