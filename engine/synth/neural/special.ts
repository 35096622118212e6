/** Special functions the variational mixture needs (double precision, real arguments > 0). */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-13). */
export function lgamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ψ(x), the digamma function, for x > 0: recurrence up to x >= 10, then the asymptotic series. */
export function digamma(x: number): number {
  let r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** ln B(a, b). */
export function betaln(a: number, b: number): number {
  return lgamma(a) + lgamma(b) - lgamma(a + b);
}
