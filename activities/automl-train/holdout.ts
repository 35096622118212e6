/** Out-of-fold scores as bytes: [n: u32][rows: n x u32][scores: f64...]. */
export function encodeHoldout(h: { rows: Uint32Array; scores: Float64Array }): Buffer {
  const buf = Buffer.alloc(4 + h.rows.length * 4 + h.scores.length * 8);
  buf.writeUInt32LE(h.rows.length, 0);
  Buffer.from(h.rows.buffer, h.rows.byteOffset, h.rows.byteLength).copy(buf, 4);
  Buffer.from(h.scores.buffer, h.scores.byteOffset, h.scores.byteLength).copy(buf, 4 + h.rows.length * 4);
  return buf;
}

export function decodeHoldout(buf: Buffer): { rows: Uint32Array; scores: Float64Array } {
  const n = buf.readUInt32LE(0);
  const rows = new Uint32Array(n);
  Buffer.from(rows.buffer).set(buf.subarray(4, 4 + n * 4));
  const rest = buf.subarray(4 + n * 4);
  const scores = new Float64Array(rest.length / 8);
  Buffer.from(scores.buffer).set(rest);
  return { rows, scores };
}
