/** Helpers shared by the tests of this folder (not used by library code). */

/** Squared-error gradients of a fit to y from zero, with unit hessians. */
export function gradients(y: Float64Array): { g: Float64Array; h: Float64Array } {
  const g = Float64Array.from(y, (v) => -v);
  return { g, h: new Float64Array(y.length).fill(1) };
}

export function allRows(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}
