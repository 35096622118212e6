/**
 * Small dense linear algebra for the copula's correlation matrix: square matrices are row-major Float64Arrays of
 * size d × d. Cholesky for sampling and conditioning, Jacobi eigenvalues to repair an estimate that is not positive
 * definite.
 */

/** Lower-triangular Cholesky factor of a symmetric matrix, or null when it is not (numerically) positive definite. */
export function cholesky(a: Float64Array, d: number): Float64Array | null {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j];
      for (let k = 0; k < j; k++) s -= l[i * d + k] * l[j * d + k];
      if (i === j) {
        if (!(s > 1e-12)) return null;
        l[i * d + i] = Math.sqrt(s);
      } else l[i * d + j] = s / l[j * d + j];
    }
  }
  return l;
}

/** Solves L Lᵀ x = b in place of a copy of b, given the Cholesky factor L. */
export function cholSolve(l: Float64Array, d: number, b: Float64Array): Float64Array {
  const y = Float64Array.from(b);
  for (let i = 0; i < d; i++) {
    let s = y[i];
    for (let k = 0; k < i; k++) s -= l[i * d + k] * y[k];
    y[i] = s / l[i * d + i];
  }
  for (let i = d - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < d; k++) s -= l[k * d + i] * y[k];
    y[i] = s / l[i * d + i];
  }
  return y;
}

/** Inverse of a symmetric positive definite matrix from its Cholesky factor. */
export function cholInverse(l: Float64Array, d: number): Float64Array {
  const inv = new Float64Array(d * d);
  const e = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    e.fill(0);
    e[j] = 1;
    const col = cholSolve(l, d, e);
    for (let i = 0; i < d; i++) inv[i * d + j] = col[i];
  }
  return inv;
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric matrix by cyclic Jacobi rotations. */
export function symmetricEigen(a: Float64Array, d: number): { values: Float64Array; vectors: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += m[p * d + q] * m[p * d + q];
    if (off < 1e-22) break;
    for (let p = 0; p < d; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = m[p * d + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (m[q * d + q] - m[p * d + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < d; k++) {
          const mkp = m[k * d + p];
          const mkq = m[k * d + q];
          m[k * d + p] = c * mkp - s * mkq;
          m[k * d + q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < d; k++) {
          const mpk = m[p * d + k];
          const mqk = m[q * d + k];
          m[p * d + k] = c * mpk - s * mqk;
          m[q * d + k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < d; k++) {
          const vkp = v[k * d + p];
          const vkq = v[k * d + q];
          v[k * d + p] = c * vkp - s * vkq;
          v[k * d + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(d);
  for (let i = 0; i < d; i++) values[i] = m[i * d + i];
  return { values, vectors: v };
}

/** Up to this many dimensions a correlation estimate is repaired by eigenvalue clipping (O(d³) per Jacobi sweep). */
export const EIGEN_REPAIR_MAX_DIM = 200;

/**
 * Turns a symmetric, unit-diagonal estimate (pairwise estimates need not be jointly consistent) into a positive
 * definite correlation matrix: eigenvalues clipped at `minEigen` and the diagonal rescaled to one (up to
 * EIGEN_REPAIR_MAX_DIM dimensions), else shrunk toward the identity until its Cholesky factor exists.
 */
export function repairCorrelation(r: Float64Array, d: number, minEigen = 1e-3): Float64Array {
  if (d === 0) return new Float64Array(0);
  let out = Float64Array.from(r);
  if (d <= EIGEN_REPAIR_MAX_DIM) {
    const { values, vectors } = symmetricEigen(r, d);
    if (values.some((x) => x < minEigen)) {
      out = new Float64Array(d * d);
      for (let i = 0; i < d; i++) {
        for (let j = 0; j <= i; j++) {
          let s = 0;
          for (let k = 0; k < d; k++) s += vectors[i * d + k] * Math.max(values[k], minEigen) * vectors[j * d + k];
          out[i * d + j] = s;
          out[j * d + i] = s;
        }
      }
      const scale = new Float64Array(d);
      for (let i = 0; i < d; i++) scale[i] = 1 / Math.sqrt(out[i * d + i]);
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) out[i * d + j] *= scale[i] * scale[j];
    }
  }
  // Eigenvalue clipping leaves it positive definite up to rounding; shrinkage covers that and the large case.
  for (let lambda = 0; lambda <= 1; lambda = lambda === 0 ? 1e-4 : lambda * 2) {
    const s = new Float64Array(d * d);
    for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) s[i * d + j] = i === j ? 1 : (1 - lambda) * out[i * d + j];
    if (cholesky(s, d)) return s;
  }
  const id = new Float64Array(d * d);
  for (let i = 0; i < d; i++) id[i * d + i] = 1;
  return id;
}
