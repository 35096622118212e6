/**
 * The binary container of neural models and checkpoints: a JSON header plus raw little-endian float32 tensors, so
 * weights take 4 bytes per value (JSON numbers take ~10, base64 ~5.3).
 *
 * Layout: magic (4 bytes) | u32 format version | u32 header length | header JSON (UTF-8), zero-padded to a multiple
 * of 4 | tensor data, in the order of header.tensors ({name, shape, offset in floats}).
 */
import type { TensorData } from './params';

export const CONTAINER_VERSION = 1;

interface TensorEntry {
  name: string;
  shape: number[];
  offset: number;
  length: number;
}

/** Packs a JSON-able header and named tensors. */
export function pack(magic: string, header: object, tensors: Record<string, TensorData>): Uint8Array {
  const entries: TensorEntry[] = [];
  let floats = 0;
  for (const [name, t] of Object.entries(tensors)) {
    entries.push({ name, shape: t.shape, offset: floats, length: t.data.length });
    floats += t.data.length;
  }
  const json = new TextEncoder().encode(JSON.stringify({ ...header, tensors: entries }));
  const headerBytes = Math.ceil(json.length / 4) * 4;
  const start = 12 + headerBytes;
  const out = new Uint8Array(start + floats * 4);
  out.set(new TextEncoder().encode(magic.padEnd(4).slice(0, 4)), 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, CONTAINER_VERSION, true);
  view.setUint32(8, json.length, true);
  out.set(json, 12);
  const data = new Float32Array(out.buffer, start, floats);
  for (const e of entries) data.set(tensors[e.name].data, e.offset);
  return out;
}

/** Unpacks a container written by `pack` with the same magic; throws on anything else. */
export function unpack<H>(magic: string, bytes: Uint8Array): { header: H; tensors: Record<string, TensorData> } {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== magic.padEnd(4).slice(0, 4)) throw new Error(`not a ${magic} container`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== CONTAINER_VERSION) throw new Error(`${magic} container version ${version} is not supported (expected ${CONTAINER_VERSION})`);
  const length = view.getUint32(8, true);
  if (12 + length > bytes.length) throw new Error(`${magic} container is truncated`);
  const parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))) as H & { tensors: TensorEntry[] };
  const start = 12 + Math.ceil(length / 4) * 4;
  // Copy the data into an aligned buffer: `bytes` may be a view at any offset (a Node Buffer from a pool).
  const total = parsed.tensors.reduce((s, e) => s + e.length, 0);
  if (start + total * 4 > bytes.length) throw new Error(`${magic} container is truncated`);
  const data = new Float32Array(bytes.slice(start, start + total * 4).buffer);
  const tensors: Record<string, TensorData> = {};
  for (const e of parsed.tensors) tensors[e.name] = { shape: e.shape, data: data.subarray(e.offset, e.offset + e.length) };
  const { tensors: _omit, ...header } = parsed;
  return { header: header as H, tensors };
}
