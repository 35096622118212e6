/**
 * The NER model's hot loops as WebAssembly SIMD functions (4 float32 lanes per instruction), assembled from their
 * opcodes (./wasm-asm.ts). Addresses are byte offsets into the imported memory.
 *
 *   gemm(w, x, y, nOut, nIn, nTok, xStride):  y[t·nOut + r] = Σ_k w[r·nIn + k] · x[t·xStride + k]
 *     two weight rows × four tokens per pass (8 vector accumulators), ~8x the best scalar JavaScript here; nOut even,
 *     nIn and nTok multiples of 4. gemm1 is the same one token per pass, for the last tokens. Rows of x may overlap
 *     (xStride < nIn): the encoder's 3-token windows are read in place.
 *
 *   maxnorm(m, b, g, beta, out, tmp, nRows, residual):  per row of 288 piece-major products m (piece p of output o at
 *     p·96 + o), the maxout over the 3 pieces plus bias b, then LayerNorm (mean, variance + 1e-8, gain g, bias beta)
 *     into the row's 96 floats of out, added to them when `residual` is 1; tmp holds 96 floats of scratch.
 *
 *   gemmQ(w, x, y, nOut, nIn, nTok, xStride, scale):  gemm over int16 weights and inputs, eight products per
 *     instruction (i32x4.dot_i16x8_s) summed in int32, each output times its row's scale: ~1.7x gemm's products per
 *     second here. absmax and quantize turn the float inputs into those int16 (./arena.ts gemmQ). The encoder and the
 *     embedding mix run on it; the smaller layers before the decoder stay in float.
 */
import * as A from './wasm-asm';

const { get, set, i32, mem, loopWhileBelow, addTo, laneSum, zeroV128 } = A;

/**
 * The product, `tokens` (4 or 1) tokens per pass with 2 × tokens vector accumulators: over float32 (gemm), or over
 * int16 (`ints`: gemmQ, eight products per dot instruction into int32 lanes, each output times its row's scale).
 */
function product(tokens: 4 | 1, ints: boolean): A.WasmFunction {
  const params = ints ? 8 : 7;
  const [W, X, Y, N_OUT, N_IN, N_TOK, X_STRIDE, SCALE] = [0, 1, 2, 3, 4, 5, 6, 7];
  // Locals after the parameters: counters, the row and stride in bytes, addresses.
  const [T, R, K, NIN_B, XS_B, WR, YA, SR] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => params + i);
  const XS = [8, 9, 10, 11].slice(0, tokens).map((i) => params + i); // the pass's token row addresses
  const ACC = params + 12; // accumulators: ACC+j for weight row 0 and token j, ACC+tokens+j for row 1
  const [W0, W1, XV] = [ACC + 2 * tokens, ACC + 2 * tokens + 1, ACC + 2 * tokens + 2];
  const shift = ints ? 1 : 2; // log2 of an element's bytes
  const multiplyAdd = ints ? [...A.I32X4_DOT_I16X8_S, ...A.I32X4_ADD] : [...A.F32X4_MUL, ...A.F32X4_ADD];

  // Over k (16 bytes at a time): two weight vectors, the tokens' vectors, 2 × tokens multiply-adds.
  const kLoop: number[] = [...get(WR), ...get(K), A.I32_ADD, ...A.V128_LOAD, ...mem(0), ...set(W0)];
  kLoop.push(...get(WR), ...get(NIN_B), A.I32_ADD, ...get(K), A.I32_ADD, ...A.V128_LOAD, ...mem(0), ...set(W1));
  XS.forEach((xj, j) => {
    kLoop.push(...get(xj), ...get(K), A.I32_ADD, ...A.V128_LOAD, ...mem(0), ...set(XV));
    kLoop.push(...get(ACC + j), ...get(W0), ...get(XV), ...multiplyAdd, ...set(ACC + j));
    kLoop.push(...get(ACC + tokens + j), ...get(W1), ...get(XV), ...multiplyAdd, ...set(ACC + tokens + j));
  });
  kLoop.push(...addTo(K, 16));

  // An accumulator's lanes summed, as the float32 to store (times the row's scale at SR + offset for ints).
  const result = (acc: number, offset: number): number[] => (ints ? [...laneSum(acc, true), A.F32_CONVERT_I32_S, ...get(SR), A.F32_LOAD, ...mem(offset), A.F32_MUL] : laneSum(acc));

  // Over r (two weight rows at a time): zero the accumulators, run k, store y[(t + j)·nOut + r] and r + 1.
  const rLoop: number[] = [...get(W), ...get(R), ...get(NIN_B), A.I32_MUL, A.I32_ADD, ...set(WR)];
  if (ints) rLoop.push(...get(SCALE), ...get(R), ...i32(2), A.I32_SHL, A.I32_ADD, ...set(SR));
  for (let a = 0; a < 2 * tokens; a++) rLoop.push(...zeroV128(), ...set(ACC + a));
  rLoop.push(...i32(0), ...set(K), ...loopWhileBelow(K, NIN_B, kLoop));
  for (let j = 0; j < tokens; j++) {
    rLoop.push(...get(T), ...i32(j), A.I32_ADD, ...get(N_OUT), A.I32_MUL, ...get(R), A.I32_ADD, ...i32(2), A.I32_SHL, ...get(Y), A.I32_ADD, ...set(YA));
    rLoop.push(...get(YA), ...result(ACC + j, 0), A.F32_STORE, ...mem(0));
    rLoop.push(...get(YA), ...result(ACC + tokens + j, 4), A.F32_STORE, ...mem(4));
  }
  rLoop.push(...addTo(R, 2));

  // Over t (`tokens` at a time): their row addresses, then r.
  const tLoop: number[] = [...get(X), ...get(T), ...get(XS_B), A.I32_MUL, A.I32_ADD, ...set(XS[0])];
  for (let j = 1; j < tokens; j++) tLoop.push(...get(XS[j - 1]), ...get(XS_B), A.I32_ADD, ...set(XS[j]));
  tLoop.push(...i32(0), ...set(R), ...loopWhileBelow(R, N_OUT, rLoop), ...addTo(T, tokens));

  const code = [...get(N_IN), ...i32(shift), A.I32_SHL, ...set(NIN_B), ...get(X_STRIDE), ...i32(shift), A.I32_SHL, ...set(XS_B)];
  code.push(...i32(0), ...set(T), ...loopWhileBelow(T, N_TOK, tLoop));
  return {
    name: `gemm${ints ? 'Q' : ''}${tokens === 4 ? '' : '1'}`,
    params,
    locals: [
      [12, A.I32],
      [2 * tokens + 3, A.V128],
    ],
    code,
  };
}

/** absmax(x, n, out): the largest magnitude of the n floats at x (n a multiple of 4) as a float32 at out. */
function absmax(): A.WasmFunction {
  const [X, N, OUT] = [0, 1, 2];
  const [K, END] = [3, 4];
  const M = 5;
  const loop = [...get(M), ...get(X), ...get(K), A.I32_ADD, ...A.V128_LOAD, ...mem(0), ...A.F32X4_ABS, ...A.F32X4_MAX, ...set(M), ...addTo(K, 16)];
  const lane = (i: number): number[] => [...get(M), ...A.F32X4_EXTRACT, i];
  const code = [...get(N), ...i32(2), A.I32_SHL, ...set(END), ...zeroV128(), ...set(M), ...i32(0), ...set(K), ...loopWhileBelow(K, END, loop)];
  code.push(...get(OUT), ...lane(0), ...lane(1), A.F32_MAX, ...lane(2), ...lane(3), A.F32_MAX, A.F32_MAX, A.F32_STORE, ...mem(0));
  return {
    name: 'absmax',
    params: 3,
    locals: [
      [2, A.I32],
      [1, A.V128],
    ],
    code,
  };
}

/**
 * quantize(x, n, factor, out): the n floats at x (n rounded up to a multiple of 8) times the float32 at `factor`,
 * rounded to the nearest integer and stored as int16 at out.
 */
function quantize(): A.WasmFunction {
  const [X, N, FACTOR, OUT] = [0, 1, 2, 3];
  const [K, END] = [4, 5];
  const S = 6;
  const half = (offset: number): number[] => [...get(X), ...get(K), A.I32_ADD, ...A.V128_LOAD, ...mem(offset), ...get(S), ...A.F32X4_MUL, ...A.F32X4_NEAREST, ...A.I32X4_TRUNC_SAT_F32X4_S];
  // Eight floats (32 bytes) in, eight int16 (16 bytes) out.
  const loop = [...get(OUT), ...get(K), ...i32(1), A.I32_SHR_U, A.I32_ADD, ...half(0), ...half(16), ...A.I16X8_NARROW_I32X4_S, ...A.V128_STORE, ...mem(0), ...addTo(K, 32)];
  const code = [...get(FACTOR), A.F32_LOAD, ...mem(0), ...A.F32X4_SPLAT, ...set(S), ...get(N), ...i32(2), A.I32_SHL, ...set(END), ...i32(0), ...set(K), ...loopWhileBelow(K, END, loop)];
  return {
    name: 'quantize',
    params: 4,
    locals: [
      [2, A.I32],
      [1, A.V128],
    ],
    code,
  };
}

function maxnorm(): A.WasmFunction {
  const [M, B, G, BETA, OUT, TMP, N_ROWS, RESIDUAL] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [I, O, MR, OR, END_O] = [8, 9, 10, 11, 12];
  const [MU, INV] = [13, 14];
  const [V, SUM] = [15, 16];
  const WIDTH_BYTES = 96 * 4;
  const at = (base: number, offset: number): number[] => [...get(base), ...get(O), A.I32_ADD, ...A.V128_LOAD, ...mem(offset)];

  // Pass 1: the maxout of the three pieces (plus bias) into tmp, summed for the mean.
  const pieces: number[] = [...at(MR, 0), ...at(B, 0), ...A.F32X4_ADD];
  pieces.push(...at(MR, WIDTH_BYTES), ...at(B, WIDTH_BYTES), ...A.F32X4_ADD, ...A.F32X4_MAX);
  pieces.push(...at(MR, 2 * WIDTH_BYTES), ...at(B, 2 * WIDTH_BYTES), ...A.F32X4_ADD, ...A.F32X4_MAX, ...set(V));
  pieces.push(...get(TMP), ...get(O), A.I32_ADD, ...get(V), ...A.V128_STORE, ...mem(0));
  pieces.push(...get(SUM), ...get(V), ...A.F32X4_ADD, ...set(SUM), ...addTo(O, 16));
  // Pass 2: the squared deviations.
  const deviations: number[] = [...at(TMP, 0), ...get(MU), ...A.F32X4_SPLAT, ...A.F32X4_SUB, ...set(V)];
  deviations.push(...get(SUM), ...get(V), ...get(V), ...A.F32X4_MUL, ...A.F32X4_ADD, ...set(SUM), ...addTo(O, 16));
  // Pass 3: (tmp - mu) · inv · g + beta, stored or added.
  const normed = [...at(TMP, 0), ...get(MU), ...A.F32X4_SPLAT, ...A.F32X4_SUB, ...get(INV), ...A.F32X4_SPLAT, ...A.F32X4_MUL];
  normed.push(...at(G, 0), ...A.F32X4_MUL, ...at(BETA, 0), ...A.F32X4_ADD);
  const store = (add: boolean): number[] => [...get(OR), ...get(O), A.I32_ADD, ...normed, ...(add ? [...at(OR, 0), ...A.F32X4_ADD] : []), ...A.V128_STORE, ...mem(0), ...addTo(O, 16)];

  const row: number[] = [...get(M), ...get(I), ...i32(288 * 4), A.I32_MUL, A.I32_ADD, ...set(MR)];
  row.push(...get(OUT), ...get(I), ...i32(WIDTH_BYTES), A.I32_MUL, A.I32_ADD, ...set(OR));
  row.push(...zeroV128(), ...set(SUM), ...i32(0), ...set(O), ...loopWhileBelow(O, END_O, pieces));
  row.push(...laneSum(SUM), ...A.f32(96), A.F32_DIV, ...set(MU));
  row.push(...zeroV128(), ...set(SUM), ...i32(0), ...set(O), ...loopWhileBelow(O, END_O, deviations));
  row.push(...A.f32(1), ...laneSum(SUM), ...A.f32(96), A.F32_DIV, ...A.f32(1e-8), A.F32_ADD, A.F32_SQRT, A.F32_DIV, ...set(INV));
  row.push(...i32(0), ...set(O), ...get(RESIDUAL), ...A.IF, ...loopWhileBelow(O, END_O, store(true)), A.ELSE, ...loopWhileBelow(O, END_O, store(false)), A.END);
  row.push(...addTo(I, 1));

  return {
    name: 'maxnorm',
    params: 8,
    locals: [
      [5, A.I32],
      [2, A.F32],
      [2, A.V128],
    ],
    code: [...i32(WIDTH_BYTES), ...set(END_O), ...i32(0), ...set(I), ...loopWhileBelow(I, N_ROWS, row)],
  };
}

export type Gemm = (w: number, x: number, y: number, nOut: number, nIn: number, nTok: number, xStride: number) => void;
export type AbsMax = (x: number, n: number, out: number) => void;
export type Quantize = (x: number, n: number, factor: number, out: number) => void;
export type GemmQ = (w: number, x: number, y: number, nOut: number, nIn: number, nTok: number, xStride: number, scale: number) => void;
export type MaxNorm = (m: number, b: number, g: number, beta: number, out: number, tmp: number, nRows: number, residual: number) => void;

/** The slice of the WebAssembly API used here (the project compiles without the DOM typings that declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (d: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}
const WA = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

export function simdModuleBytes(): Uint8Array<ArrayBuffer> {
  return A.wasmModule([product(4, false), product(1, false), maxnorm(), product(4, true), product(1, true), absmax(), quantize()]);
}

/** A memory and the kernels over it, or undefined where the engine has no WebAssembly SIMD (it rejects the module). */
export function simdKernels(initialPages: number): { memory: WasmMemory; gemm: Gemm; gemm1: Gemm; maxnorm: MaxNorm; gemmQ: GemmQ; gemmQ1: GemmQ; absmax: AbsMax; quantize: Quantize } | undefined {
  const bytes = simdModuleBytes();
  if (!WA || !WA.validate(bytes)) return undefined;
  const memory = new WA.Memory({ initial: initialPages });
  const instance = new WA.Instance(new WA.Module(bytes), { env: { memory } });
  const e = instance.exports;
  return {
    memory,
    gemm: e.gemm as Gemm,
    gemm1: e.gemm1 as Gemm,
    maxnorm: e.maxnorm as MaxNorm,
    gemmQ: e.gemmQ as GemmQ,
    gemmQ1: e.gemmQ1 as GemmQ,
    absmax: e.absmax as AbsMax,
    quantize: e.quantize as Quantize,
  };
}
