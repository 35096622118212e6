/**
 * WebAssembly histogram kernels. V8 compiles typed-array loops with a bounds check on every
 * access; the same loop in WebAssembly runs without them (guard pages) and measured about 1.5x
 * faster on 1M rows x 28 features. The modules are assembled here from their opcodes, so no
 * toolchain is needed.
 *
 * A kernel is acc(rows, a, b, bins, gh, hist, p), all pointers byte offsets into one memory (the
 * arena): for i in [a, b), r = rows[i] (u32), g = gh[2r], h = gh[2r + 1] (f64), and for each of
 * the p features in order: hist[s] += g, hist[s + 1] += h (and hist[s + 2] += 1 in the counting
 * variant), s the feature's slot for the row's bin. These are the additions of accumulateSlots in
 * its order, so every path gives the same sums.
 *
 * - The specialized kernel (WebAssembly SIMD) is compiled for one dataset. It reads the row's
 *   8-bit bins and carries every feature's histogram offset as an immediate; (g, h) is one
 *   f64x2.add. Measured 7-12% faster than the generic kernel on 800k x 28, on half the index bytes.
 * - The generic kernel (scalar, no counting variant) reads precomputed 16-bit slot indices; it
 *   runs where the engine has no SIMD.
 *
 * Both modules also export the tree learner's partition kernel (3x the JS loop's speed).
 */

interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
interface WasmApi {
  Memory: new (d: { initial: number; maximum: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
  validate(bytes: Uint8Array): boolean;
}
const WA = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

export type KernelFn = (rows: number, a: number, b: number, bins: number, gh: number, hist: number, p: number) => void;

/** partitionPart (row-jobs.ts) over the arena; see partitionBody. */
export type PartitionFn = (index: number, scratch: number, bins: number, mask: number, a: number, b: number) => number;

/** A thread's instance of the arena's kernels: `counting` is null for the generic module. */
export interface Kernels {
  plain: KernelFn;
  counting: KernelFn | null;
  partition: PartitionFn;
}

/** The kernels' memory and the byte offsets of the builder's arrays in it (hist: one per chunk). */
export interface KernelArena {
  memory: WasmMemory;
  module: object;
  /** True when module is the dataset's specialized kernel (reads `bins`); else the generic one (reads `idx`). */
  specialized: boolean;
  /** 16-bit slot indices, row-major (nrows * p). */
  idx: number;
  /** 8-bit bins, row-major (nrows * p), filled only for the specialized kernel. */
  bins: number;
  gh: number;
  rows: number;
  hist: number[];
  /** 8-bit bins, column-major (feature f's column at colBins + f * nrows), for the partition kernel. */
  colBins: number;
  /** The tree learner's row index and partition scratch (nrows u32 each) and the split's bin mask (256 + 1 bytes). */
  rowIndex: number;
  rowScratch: number;
  splitMask: number;
}

// ---- encoding ----

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const F64 = 0x7c;
const V128 = 0x7b;
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const tee = (i: number): number[] => [0x22, i];
const c32 = (v: number): number[] => [0x41, ...sleb(v)];
const f64const = (v: number): number[] => [0x44, ...Array.from(new Uint8Array(new Float64Array([v]).buffer))];
const [ADD, SUB, MUL, SHL, LTU, GEU, LTS, GES, FADD] = [[0x6a], [0x6b], [0x6c], [0x74], [0x49], [0x4f], [0x48], [0x4e], [0xa0]];
const ld32 = [0x28, 2, 0];
const ld16 = (off: number): number[] => [0x2f, 1, ...uleb(off)];
const ld8 = (off: number): number[] => [0x2d, 0, ...uleb(off)];
const ldf = (off: number): number[] => [0x2b, 3, ...uleb(off)];
const stf = (off: number): number[] => [0x39, 3, ...uleb(off)];
const v128ld = (off: number): number[] => [0xfd, 0x00, 3, ...uleb(off)];
const v128st = (off: number): number[] => [0xfd, 0x0b, 3, ...uleb(off)];
const F64X2_ADD = [0xfd, ...uleb(0xf0)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const BR_IF0 = [0x0d, 0];

/** A module importing env.mem (shared or not) and exporting the given (name, locals, body) functions of the kernel signature. */
function moduleBytes(shared: boolean, funcs: { name: string; locals: number[][]; body: number[]; type?: number }[]): Uint8Array {
  const str = (t: string): number[] => [...uleb(t.length), ...Array.from(Buffer.from(t))];
  const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
  const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
  const code = funcs.map((f) => {
    const fn = [...vec(f.locals), ...f.body, ...END];
    return [...uleb(fn.length), ...fn];
  });
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    // Type 0: the kernel signature (7 x i32, no result); type 1: partition (6 x i32 -> i32).
    ...section(
      1,
      vec([
        [0x60, ...vec(Array.from({ length: 7 }, () => [I32])), 0],
        [0x60, ...vec(Array.from({ length: 6 }, () => [I32])), 1, I32],
      ]),
    ),
    ...section(2, vec([[...str('env'), ...str('mem'), 0x02, shared ? 0x03 : 0x01, ...uleb(1), ...uleb(65536)]])),
    ...section(3, vec(funcs.map((f) => [f.type ?? 0]))),
    ...section(7, vec(funcs.map((f, i) => [...str(f.name), 0x00, i]))),
    ...section(10, vec(code)),
  ]);
}

// Parameters 0..6 of every kernel.
const [ROWS, A, B, BINS, GH, HIST, P] = [0, 1, 2, 3, 4, 5, 6];

/** The specialized kernel's body (locals: 7 i, 8 r, 9 rb, 10 s as i32; 11 (g, h) as v128). */
function specializedBody(offsets: Int32Array, counts: boolean): number[] {
  const [I, R, RB, S, GHV] = [7, 8, 9, 10, 11];
  const upd = (k: number): number[] => {
    const off = offsets[k] * 24;
    return [
      ...get(RB),
      ...ld8(k),
      ...c32(24),
      ...MUL,
      ...get(HIST),
      ...ADD,
      ...tee(S),
      ...get(S),
      ...v128ld(off),
      ...get(GHV),
      ...F64X2_ADD,
      ...v128st(off),
      ...(counts ? [...get(S), ...get(S), ...ldf(off + 16), ...f64const(1), ...FADD, ...stf(off + 16)] : []),
    ];
  };
  return [
    ...get(A),
    ...set(I),
    ...BLOCK,
    ...get(I),
    ...get(B),
    ...GEU,
    ...BR_IF0,
    ...LOOP,
    // r = rows[i]; rb = bins + r p; (g, h) = gh[2r .. 2r + 1]
    ...get(ROWS),
    ...get(I),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...ld32,
    ...set(R),
    ...get(BINS),
    ...get(R),
    ...get(P),
    ...MUL,
    ...ADD,
    ...set(RB),
    ...get(GH),
    ...get(R),
    ...c32(4),
    ...SHL,
    ...ADD,
    ...v128ld(0),
    ...set(GHV),
    ...Array.from(offsets, (_, k) => upd(k)).flat(),
    ...get(I),
    ...c32(1),
    ...ADD,
    ...tee(I),
    ...get(B),
    ...LTU,
    ...BR_IF0,
    ...END,
    ...END,
  ];
}

/** The generic kernel's body (locals: 7 i, 8 r, 9 rb, 10 end, 11 s, 12 end4 as i32; 13 g, 14 h as f64). */
function genericBody(): number[] {
  const [I, R, RB, E, S, E4, G, H] = [7, 8, 9, 10, 11, 12, 13, 14];
  // s = hist + idx16[rb + off] * 8; f64[s] += g; f64[s + 8] += h
  const upd = (off: number): number[] => [
    ...get(HIST),
    ...get(RB),
    ...ld16(off),
    ...c32(3),
    ...SHL,
    ...ADD,
    ...tee(S),
    ...get(S),
    ...ldf(0),
    ...get(G),
    ...FADD,
    ...stf(0),
    ...get(S),
    ...get(S),
    ...ldf(8),
    ...get(H),
    ...FADD,
    ...stf(8),
  ];
  return [
    ...get(A),
    ...set(I),
    ...BLOCK,
    ...get(I),
    ...get(B),
    ...GEU,
    ...BR_IF0,
    ...LOOP,
    // r = rows[i]; rb = idx + 2 r p; end = rb + 2 p; end4 = end - 6
    ...get(ROWS),
    ...get(I),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...ld32,
    ...set(R),
    ...get(BINS),
    ...get(R),
    ...get(P),
    ...MUL,
    ...c32(1),
    ...SHL,
    ...ADD,
    ...tee(RB),
    ...get(P),
    ...c32(1),
    ...SHL,
    ...ADD,
    ...tee(E),
    ...c32(6),
    ...SUB,
    ...set(E4),
    // g = gh[2r], h = gh[2r + 1]
    ...get(GH),
    ...get(R),
    ...c32(4),
    ...SHL,
    ...ADD,
    ...tee(S),
    ...ldf(0),
    ...set(G),
    ...get(S),
    ...ldf(8),
    ...set(H),
    // four features at a time while rb < end - 6 (signed: end - 6 is negative when rb = 0 and p < 4;
    // every offset is below 2^31)
    ...BLOCK,
    ...get(RB),
    ...get(E4),
    ...GES,
    ...BR_IF0,
    ...LOOP,
    ...upd(0),
    ...upd(2),
    ...upd(4),
    ...upd(6),
    ...get(RB),
    ...c32(8),
    ...ADD,
    ...tee(RB),
    ...get(E4),
    ...LTS,
    ...BR_IF0,
    ...END,
    ...END,
    // the rest one at a time
    ...BLOCK,
    ...get(RB),
    ...get(E),
    ...GEU,
    ...BR_IF0,
    ...LOOP,
    ...upd(0),
    ...get(RB),
    ...c32(2),
    ...ADD,
    ...tee(RB),
    ...get(E),
    ...LTU,
    ...BR_IF0,
    ...END,
    ...END,
    ...get(I),
    ...c32(1),
    ...ADD,
    ...tee(I),
    ...get(B),
    ...LTU,
    ...BR_IF0,
    ...END,
    ...END,
  ];
}

/**
 * part(index, scratch, bins, mask, a, b) -> lefts: partitionPart (row-jobs.ts) over byte offsets:
 * the rows of index[a..b) whose bin's mask byte is 1 are packed in order from index[a], the others
 * written in order from scratch[a]; returns how many went left. Branch-free, as the JS version.
 */
function partitionBody(): number[] {
  const [IDX, SCR, BNS, MSK, PA, PB] = [0, 1, 2, 3, 4, 5];
  const [PI, PL, PR, ROW, M, E] = [6, 7, 8, 9, 10, 11];
  const LD32 = [0x28, 2, 0];
  const ST32 = [0x36, 2, 0];
  const XOR = [0x73];
  const SHRU = [0x76];
  return [
    // pi = pl = index + 4a; pr = scratch + 4a; e = index + 4b
    ...get(IDX),
    ...get(PA),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...tee(PI),
    ...set(PL),
    ...get(SCR),
    ...get(PA),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...set(PR),
    ...get(IDX),
    ...get(PB),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...set(E),
    ...BLOCK,
    ...get(PI),
    ...get(E),
    ...GEU,
    ...BR_IF0,
    ...LOOP,
    ...get(PI),
    ...LD32,
    ...set(ROW),
    ...get(MSK),
    ...get(BNS),
    ...get(ROW),
    ...ADD,
    ...ld8(0),
    ...ADD,
    ...ld8(0),
    ...set(M),
    ...get(PL),
    ...get(ROW),
    ...ST32,
    ...get(PR),
    ...get(ROW),
    ...ST32,
    ...get(PL),
    ...get(M),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...set(PL),
    ...get(PR),
    ...get(M),
    ...c32(1),
    ...XOR,
    ...c32(2),
    ...SHL,
    ...ADD,
    ...set(PR),
    ...get(PI),
    ...c32(4),
    ...ADD,
    ...tee(PI),
    ...get(E),
    ...LTU,
    ...BR_IF0,
    ...END,
    ...END,
    ...get(PL),
    ...get(IDX),
    ...get(PA),
    ...c32(2),
    ...SHL,
    ...ADD,
    ...SUB,
    ...c32(2),
    ...SHRU,
  ];
}

const PARTITION = { name: 'part', locals: [[6, I32]], body: partitionBody(), type: 1 };

const genericModules = new Map<boolean, object>();

function genericModule(shared: boolean): object {
  let module = genericModules.get(shared);
  if (!module) {
    module = new (WA as WasmApi).Module(
      moduleBytes(shared, [
        {
          name: 'acc',
          locals: [
            [6, I32],
            [2, F64],
          ],
          body: genericBody(),
        },
        PARTITION,
      ]),
    );
    genericModules.set(shared, module);
  }
  return module;
}

/** The dataset's specialized module, or null where the engine lacks SIMD. */
function specializedModule(shared: boolean, offsets: Int32Array): object | null {
  const locals = [
    [4, I32],
    [1, V128],
  ];
  const bytes = moduleBytes(shared, [{ name: 'acc', locals, body: specializedBody(offsets, false) }, { name: 'accc', locals, body: specializedBody(offsets, true) }, PARTITION]);
  return (WA as WasmApi).validate(bytes) ? new (WA as WasmApi).Module(bytes) : null;
}

/**
 * A memory holding slot indices (nrows * p u16), 8-bit bins (nrows * p, row-major), interleaved
 * gradients (nrows pairs of f64), the node's rows (nrows u32), `slabs` histograms, and the tree
 * learner's partition arrays (column-major bins, row index, scratch, mask), or null where
 * WebAssembly is not available or the arrays would take more than 1 GiB (the byte path then runs).
 * `offsets` are the features' first histogram slots.
 */
export function createArena(nrows: number, offsets: Int32Array, totalBins: number, slabs: number, shared: boolean): KernelArena | null {
  if (!WA) return null;
  const p = offsets.length;
  const align = (x: number): number => Math.ceil(x / 64) * 64;
  let off = 0;
  const take = (bytes: number): number => {
    const o = off;
    off += align(bytes);
    return o;
  };
  const idx = take(2 * nrows * p);
  const bins = take(nrows * p);
  const gh = take(16 * nrows);
  const rows = take(4 * nrows);
  const hist: number[] = [];
  for (let c = 0; c < slabs; c++) hist.push(take(8 * totalBins * 3));
  const colBins = take(nrows * p);
  const rowIndex = take(4 * nrows);
  const rowScratch = take(4 * nrows);
  const splitMask = take(257);
  if (off > 2 ** 30) return null;
  try {
    const special = specializedModule(shared, offsets);
    const pages = Math.max(1, Math.ceil(off / 65536));
    const memory = new WA.Memory({ initial: pages, maximum: pages, shared });
    return { memory, module: special ?? genericModule(shared), specialized: special !== null, idx, bins, gh, rows, hist, colBins, rowIndex, rowScratch, splitMask };
  } catch {
    return null;
  }
}

/** The arena's kernels for the calling thread (each thread instantiates its own). */
export function instantiateKernels(arena: KernelArena): Kernels {
  const inst = new (WA as WasmApi).Instance(arena.module, { env: { mem: arena.memory } });
  return { plain: inst.exports.acc as KernelFn, counting: arena.specialized ? (inst.exports.accc as KernelFn) : null, partition: inst.exports.part as PartitionFn };
}
