/**
 * A network's parameters on the GPU as the CPU engine's ParamSet + Adam hold them: packed in one buffer in ParamSet
 * order (so one Adam dispatch updates them all), with gradients and both Adam moments packed alike, read and written
 * in the CPU layout (weights by name; moments flat, without the packing's alignment gaps) for checkpoints.
 */
import type { GpuRuntime, Tensor } from '../runtime';
import type { TensorData } from './trainer';

/** A network's parameters packed in one buffer (CPU ParamSet order), with their gradients and Adam moments alike. */
export class PackedParams {
  readonly names: string[];
  readonly shapes: number[][];
  readonly values: { whole: Tensor; parts: Tensor[] };
  readonly grads: { whole: Tensor; parts: Tensor[] };
  readonly m: { whole: Tensor; parts: Tensor[] };
  readonly v: { whole: Tensor; parts: Tensor[] };
  /** All ones: PyTorch's weight decay applies to every parameter (biases and batch-norm scales too). */
  readonly decay: Tensor;
  private readonly index = new Map<string, number>();

  constructor(
    private readonly rt: GpuRuntime,
    label: string,
    init: Array<{ name: string; shape: number[]; data: Float32Array }>,
  ) {
    this.names = init.map((p) => p.name);
    this.shapes = init.map((p) => p.shape);
    this.names.forEach((n, i) => this.index.set(n, i));
    const lengths = init.map((p) => p.data.length);
    this.values = rt.packed(lengths, `${label} params`);
    this.grads = rt.packed(lengths, `${label} grads`);
    this.m = rt.packed(lengths, `${label} adam m`);
    this.v = rt.packed(lengths, `${label} adam v`);
    this.decay = rt.tensor(new Float32Array(this.values.whole.length).fill(1), `${label} decay`);
    init.forEach((p, i) => rt.write(this.values.parts[i], p.data));
  }

  get(name: string): Tensor {
    return this.values.parts[this.at(name)];
  }

  grad(name: string): Tensor {
    return this.grads.parts[this.at(name)];
  }

  private at(name: string): number {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`unknown parameter ${name}`);
    return i;
  }

  /** The parameters by name, as ParamSet.read. */
  async read(): Promise<Record<string, TensorData>> {
    const all = await this.rt.read(this.values.whole);
    const out: Record<string, TensorData> = {};
    this.names.forEach((n, i) => {
      const t = this.values.parts[i];
      out[n] = { shape: this.shapes[i].slice(), data: all.slice(t.offset, t.offset + t.length) };
    });
    return out;
  }

  write(values: Record<string, TensorData>): void {
    this.names.forEach((n, i) => {
      const t = values[n];
      if (!t || t.data.length !== this.values.parts[i].length) throw new Error(`parameter ${n} is missing or has another shape`);
    });
    this.names.forEach((n, i) => this.rt.write(this.values.parts[i], values[n].data));
  }

  /** Adam's moments flat in parameter order (the CPU Adam's layout: no alignment gaps). */
  async readMoments(): Promise<Record<string, TensorData>> {
    const flat = async (packed: { whole: Tensor; parts: Tensor[] }) => {
      const all = await this.rt.read(packed.whole);
      const total = packed.parts.reduce((a, t) => a + t.length, 0);
      const out = new Float32Array(total);
      let o = 0;
      for (const t of packed.parts) {
        out.set(all.subarray(t.offset, t.offset + t.length), o);
        o += t.length;
      }
      return { shape: [total], data: out };
    };
    return { m: await flat(this.m), v: await flat(this.v) };
  }

  writeMoments(values: Record<string, TensorData>): void {
    const total = this.values.parts.reduce((a, t) => a + t.length, 0);
    const { m, v } = values;
    if (!m || !v || m.data.length !== total || v.data.length !== total) throw new Error('optimizer state is missing or has another shape');
    for (const [packed, src] of [
      [this.m, m.data],
      [this.v, v.data],
    ] as const) {
      let o = 0;
      for (const t of packed.parts) {
        this.rt.write(t, src.subarray(o, o + t.length));
        o += t.length;
      }
    }
  }
}
