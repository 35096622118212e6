/**
 * Just enough of a WebAssembly assembler for ./simd.ts: LEB128 numbers, the opcodes its kernels use, local access,
 * counted loops and a one-memory module. The kernels are written as arrays of these bytes, so the repository needs no
 * toolchain and holds no binary.
 */

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

// Value types.
export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

// Control and variables.
const BLOCK = 0x02;
const LOOP = 0x03;
const EMPTY = 0x40;
export const IF = [0x04, EMPTY];
export const ELSE = 0x05;
export const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;

// Numbers.
export const I32_GE_U = 0x4f;
export const I32_ADD = 0x6a;
export const I32_MUL = 0x6c;
export const I32_SHL = 0x74;
export const I32_SHR_U = 0x76;
export const F32_LOAD = 0x2a;
export const F32_STORE = 0x38;
export const F32_CONVERT_I32_S = 0xb2;
export const F32_MAX = 0x97;
export const F32_ADD = 0x92;
export const F32_MUL = 0x94;
export const F32_DIV = 0x95;
export const F32_SQRT = 0x91;

// SIMD (after the 0xfd prefix).
const SIMD = 0xfd;
export const V128_LOAD = [SIMD, 0x00];
export const V128_STORE = [SIMD, 0x0b];
export const V128_CONST = [SIMD, 0x0c];
export const F32X4_SPLAT = [SIMD, 0x13];
export const F32X4_EXTRACT = [SIMD, 0x1f];
export const F32X4_ADD = [SIMD, ...uleb(0xe4)];
export const F32X4_SUB = [SIMD, ...uleb(0xe5)];
export const F32X4_MUL = [SIMD, ...uleb(0xe6)];
export const F32X4_MAX = [SIMD, ...uleb(0xe9)];
export const I32X4_EXTRACT = [SIMD, 0x1b];
export const F32X4_ABS = [SIMD, ...uleb(0xe0)];
export const F32X4_NEAREST = [SIMD, ...uleb(0x6a)];
export const I32X4_TRUNC_SAT_F32X4_S = [SIMD, ...uleb(0xf8)];
export const I16X8_NARROW_I32X4_S = [SIMD, ...uleb(0x85)];
export const I32X4_ADD = [SIMD, ...uleb(0xae)];
export const I32X4_DOT_I16X8_S = [SIMD, ...uleb(0xba)];

/** memarg: alignment 2^2 (the data is float32-aligned), offset. */
export const mem = (offset: number): number[] => [2, ...uleb(offset)];
export const get = (l: number): number[] => [0x20, l];
export const set = (l: number): number[] => [0x21, l];
export const i32 = (v: number): number[] => [0x41, ...sleb(v)];
export const f32 = (v: number): number[] => [0x43, ...new Uint8Array(new Float32Array([v]).buffer)];
export const zeroV128 = (): number[] => [...V128_CONST, ...new Array<number>(16).fill(0)];
/** `block { loop { if (a >= b) break; …inner; continue } }` */
export const loopWhileBelow = (a: number, b: number, inner: number[]): number[] => [BLOCK, EMPTY, LOOP, EMPTY, ...get(a), ...get(b), I32_GE_U, BR_IF, 1, ...inner, BR, 0, END, END];
/** local = local + step */
export const addTo = (l: number, step: number): number[] => [...get(l), ...i32(step), I32_ADD, ...set(l)];
/** The sum of a vector local's four lanes, on the stack: f32x4 as an f32, or i32x4 (`ints`) as an i32. */
export const laneSum = (l: number, ints = false): number[] => {
  const [extract, add] = ints ? [I32X4_EXTRACT, I32_ADD] : [F32X4_EXTRACT, F32_ADD];
  return [...get(l), ...extract, 0, ...[1, 2, 3].flatMap((lane) => [...get(l), ...extract, lane, add])];
};

export interface WasmFunction {
  name: string;
  /** Number of i32 parameters (all parameters are i32 addresses or counts). */
  params: number;
  /** Local declarations after the parameters: [count, type]. */
  locals: [number, number][];
  code: number[];
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** A module importing `env.memory` and exporting the functions (each of its own type). */
export function wasmModule(fns: WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = section(1, [...uleb(fns.length), ...fns.flatMap((f) => [0x60, ...uleb(f.params), ...new Array<number>(f.params).fill(I32), 0])]);
  const imports = section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1]);
  const funcs = section(3, [...uleb(fns.length), ...fns.map((_, i) => i)]);
  const exported = section(7, [...uleb(fns.length), ...fns.flatMap((f, i) => [...name(f.name), 0x00, i])]);
  const bodies = fns.map((f) => {
    const body = [...uleb(f.locals.length), ...f.locals.flatMap(([n, t]) => [...uleb(n), t]), ...f.code, END];
    return [...uleb(body.length), ...body];
  });
  const code = section(10, [...uleb(fns.length), ...bodies.flat()]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exported, ...code]);
}
