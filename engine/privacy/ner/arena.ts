/**
 * One float32 memory for the weights the kernels read and the activations they write: a WebAssembly memory when
 * SIMD is available (the kernels then run in ./simd.ts), else a plain buffer and the same computations in
 * JavaScript. Offsets are in floats; views must be re-read after `scratch` (growing detaches the old ones).
 */
import { simdKernels, type AbsMax, type Gemm, type GemmQ, type MaxNorm, type Quantize, type WasmMemory } from './simd';

const WIDTH = 96;
const up4 = (n: number): number => (n + 3) & ~3;

const PAGE_FLOATS = 65536 / 4;

/** y[t·nOut + r] = Σ_k w[r·nIn + k] · x[t·xStride + k] in plain JavaScript (2 rows × 4 tokens per pass). */
function jsGemm(f: Float32Array, w: number, x: number, y: number, nOut: number, nIn: number, nTok: number, xStride: number): void {
  for (let t = 0; t < nTok; t += 4) {
    const x0 = x + t * xStride;
    const x1 = x0 + xStride;
    const x2 = x1 + xStride;
    const x3 = x2 + xStride;
    for (let r = 0; r < nOut; r += 2) {
      const w0 = w + r * nIn;
      const w1 = w0 + nIn;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      for (let k = 0; k < nIn; k++) {
        const u = f[w0 + k];
        const v = f[w1 + k];
        const p = f[x0 + k];
        const q = f[x1 + k];
        const s = f[x2 + k];
        const z = f[x3 + k];
        a0 += u * p;
        a1 += u * q;
        a2 += u * s;
        a3 += u * z;
        b0 += v * p;
        b1 += v * q;
        b2 += v * s;
        b3 += v * z;
      }
      const o = y + t * nOut + r;
      f[o] = a0;
      f[o + 1] = b0;
      f[o + nOut] = a1;
      f[o + nOut + 1] = b1;
      f[o + 2 * nOut] = a2;
      f[o + 2 * nOut + 1] = b2;
      f[o + 3 * nOut] = a3;
      f[o + 3 * nOut + 1] = b3;
    }
  }
}

/** jsGemm's companion: maxout over piece-major rows, LayerNorm, stored or added (see ./simd.ts `maxnorm`). */
function jsMaxnorm(f: Float32Array, m: number, b: number, g: number, beta: number, out: number, nRows: number, residual: boolean, tmp: Float64Array): void {
  for (let i = 0; i < nRows; i++) {
    const at = m + i * 3 * WIDTH;
    const o0 = out + i * WIDTH;
    let sum = 0;
    for (let o = 0; o < WIDTH; o++) {
      const v0 = f[at + o] + f[b + o];
      const v1 = f[at + WIDTH + o] + f[b + WIDTH + o];
      const v2 = f[at + 2 * WIDTH + o] + f[b + 2 * WIDTH + o];
      const best = v0 >= v1 ? (v0 >= v2 ? v0 : v2) : v1 >= v2 ? v1 : v2;
      tmp[o] = best;
      sum += best;
    }
    const mu = sum / WIDTH;
    let sq = 0;
    for (let o = 0; o < WIDTH; o++) {
      const d = tmp[o] - mu;
      sq += d * d;
    }
    const inv = 1 / Math.sqrt(sq / WIDTH + 1e-8);
    for (let o = 0; o < WIDTH; o++) {
      const v = (tmp[o] - mu) * inv * f[g + o] + f[beta + o];
      f[o0 + o] = residual ? f[o0 + o] + v : v;
    }
  }
}

/**
 * A weight matrix kept twice: as float32 at `w` (the JavaScript path) and, with SIMD, as int16 at byte `q` with one
 * scale per row (`scales`: the row's largest magnitude over QMAX).
 */
export interface QuantRef {
  w: number;
  q: number;
  scales: Float32Array;
}

/**
 * The integer range of the int16 products: 13 bits, so that a row of 384 products of two such numbers, summed in
 * pairs into four int32 lanes, cannot overflow (4095² · 2 · 48 < 2^31). It keeps ~4 significant digits: the
 * cross-check against spaCy (./ner.test.ts) finds the same entities.
 */
const QMAX = 4095;

/** A LayerNorm'd Maxout's bias (piece-major), gain and shift, by their offsets in the arena. */
export interface NormRef {
  b: number;
  g: number;
  beta: number;
}

export class Arena {
  private readonly memory: WasmMemory | undefined;
  private readonly wasm: { gemm: Gemm; gemm1: Gemm; maxnorm: MaxNorm; gemmQ: GemmQ; gemmQ1: GemmQ; absmax: AbsMax; quantize: Quantize } | undefined;
  /** 96 floats of scratch for the SIMD maxnorm. */
  private readonly tmpAt: number;
  private readonly tmp = new Float64Array(WIDTH);
  f32: Float32Array;
  /** The same memory as int16 (the quantized weights and inputs). */
  private i16: Int16Array;
  /** Floats taken by the weights; scratch starts here. */
  private used = 0;
  readonly simd: boolean;

  constructor(weightFloats: number, useWasm = true) {
    const pages = Math.ceil((weightFloats + WIDTH + PAGE_FLOATS) / PAGE_FLOATS);
    const simd = useWasm ? simdKernels(pages) : undefined;
    this.memory = simd?.memory;
    this.wasm = simd;
    this.f32 = this.memory ? new Float32Array(this.memory.buffer) : new Float32Array(pages * PAGE_FLOATS);
    this.i16 = new Int16Array(this.f32.buffer);
    this.simd = this.wasm !== undefined;
    this.tmpAt = this.put(new Float32Array(WIDTH));
  }

  /** Copies a weight matrix in for good; its offset. */
  put(values: Float32Array): number {
    const at = this.used;
    this.ensure(at + values.length);
    this.f32.set(values, at);
    // 16-byte alignment for the vector loads.
    this.used = at + Math.ceil(values.length / 4) * 4;
    return at;
  }

  /** A weight matrix (nOut rows of nIn) for gemmQ: as float32, and as int16 with its row scales where SIMD runs. */
  putQuantized(values: Float32Array, nOut: number, nIn: number): QuantRef {
    const w = this.put(values);
    const scales = new Float32Array(nOut);
    if (!this.wasm) return { w, q: -1, scales };
    const ints = new Int16Array(values.length);
    for (let r = 0; r < nOut; r++) {
      let max = 0;
      for (let k = r * nIn; k < (r + 1) * nIn; k++) max = Math.max(max, Math.abs(values[k]));
      scales[r] = max / QMAX;
      for (let k = r * nIn; k < (r + 1) * nIn; k++) ints[k] = max ? Math.round(values[k] / scales[r]) : 0;
    }
    // Two int16 per float of the arena.
    const at = this.put(new Float32Array(ints.buffer, 0, ints.length >> 1));
    return { w, q: at * 4, scales };
  }

  /** Floats of scratch that gemmQ needs at `tmp` for these shapes. */
  static quantScratch(nOut: number, nIn: number, nTok: number, xStride: number): number {
    return up4(Math.ceil(((nTok - 1) * xStride + nIn) / 8) * 4) + up4(nOut) + 16;
  }

  /**
   * The product of gemm with int16 weights and inputs (./simd.ts gemmQ) where SIMD runs, else gemm on the float
   * weights. The inputs are scaled by their largest magnitude to int16 in `tmp` (Arena.quantScratch floats).
   */
  gemmQ(ref: QuantRef, x: number, y: number, nOut: number, nIn: number, nTok: number, xStride: number, tmp: number): void {
    const wasm = this.wasm;
    if (!wasm) return this.gemm(ref.w, x, y, nOut, nIn, nTok, xStride);
    const n = (nTok - 1) * xStride + nIn;
    // Layout of tmp: the int16 inputs (n rounded up to 8), the row scales, the largest magnitude and its factor.
    const qx = up4(tmp);
    const scale = qx + up4(Math.ceil(n / 8) * 4);
    const slots = scale + up4(nOut);
    wasm.absmax(x * 4, n, slots * 4);
    const f = this.f32;
    const max = f[slots];
    f[slots + 1] = max ? QMAX / max : 0;
    wasm.quantize(x * 4, Math.ceil(n / 8) * 8, (slots + 1) * 4, qx * 4);
    const sx = max / QMAX;
    for (let r = 0; r < nOut; r++) f[scale + r] = ref.scales[r] * sx;
    const blocks = nTok & ~3;
    if (blocks) wasm.gemmQ(ref.q, qx * 4, y * 4, nOut, nIn, blocks, xStride, scale * 4);
    if (nTok > blocks) wasm.gemmQ1(ref.q, qx * 4 + blocks * xStride * 2, (y + blocks * nOut) * 4, nOut, nIn, nTok - blocks, xStride, scale * 4);
  }

  /** The offset of `floats` floats of scratch space, valid until the next call. */
  scratch(floats: number): number {
    this.ensure(this.used + floats);
    return this.used;
  }

  private ensure(floats: number): void {
    if (floats <= this.f32.length) return;
    const pages = Math.ceil((floats - this.f32.length) / PAGE_FLOATS) + 16;
    if (this.memory) {
      this.memory.grow(pages);
      this.f32 = new Float32Array(this.memory.buffer);
      this.i16 = new Int16Array(this.memory.buffer);
    } else {
      const grown = new Float32Array(this.f32.length + pages * PAGE_FLOATS);
      grown.set(this.f32);
      this.f32 = grown;
      this.i16 = new Int16Array(grown.buffer);
    }
  }

  /** The product (see jsGemm) with float offsets; nOut even, nIn a multiple of 4. */
  gemm(w: number, x: number, y: number, nOut: number, nIn: number, nTok: number, xStride: number): void {
    const blocks = nTok & ~3;
    if (this.wasm) {
      if (blocks) this.wasm.gemm(w * 4, x * 4, y * 4, nOut, nIn, blocks, xStride);
      // The last 1-3 tokens one at a time (short texts would otherwise pay for a whole block of 4).
      if (nTok > blocks) this.wasm.gemm1(w * 4, (x + blocks * xStride) * 4, (y + blocks * nOut) * 4, nOut, nIn, nTok - blocks, xStride);
    } else jsGemm(this.f32, w, x, y, nOut, nIn, up4(nTok), xStride);
  }

  /** Maxout and LayerNorm of nRows rows of 288 products at m into rows of 96 at out (added when `residual`). */
  maxnorm(m: number, norm: NormRef, out: number, nRows: number, residual: boolean): void {
    if (this.wasm) {
      this.wasm.maxnorm(m * 4, norm.b * 4, norm.g * 4, norm.beta * 4, out * 4, this.tmpAt * 4, nRows, residual ? 1 : 0);
    } else jsMaxnorm(this.f32, m, norm.b, norm.g, norm.beta, out, nRows, residual, this.tmp);
  }
}
