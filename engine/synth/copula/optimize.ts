/**
 * Nelder–Mead minimization for the two-parameter maximum-likelihood fits of the marginals (truncated normal, beta):
 * derivative-free, a few hundred evaluations at most, and indifferent to a non-finite value (treated as +Infinity,
 * which keeps the simplex inside the valid region).
 */
export function nelderMead(f: (x: number[]) => number, start: number[], step: number[], maxEvals = 400, tol = 1e-10): number[] {
  const n = start.length;
  const value = (x: number[]): number => {
    const v = f(x);
    return Number.isFinite(v) ? v : Infinity;
  };
  const simplex: Array<{ x: number[]; v: number }> = [{ x: start.slice(), v: value(start) }];
  for (let i = 0; i < n; i++) {
    const x = start.slice();
    x[i] += step[i];
    simplex.push({ x, v: value(x) });
  }
  let evals = n + 1;
  while (evals < maxEvals) {
    simplex.sort((a, b) => a.v - b.v);
    const best = simplex[0];
    const worst = simplex[n];
    if (Math.abs(worst.v - best.v) <= tol * (Math.abs(best.v) + tol)) break;
    const centroid = new Array<number>(n).fill(0);
    for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) centroid[k] += simplex[i].x[k] / n;
    const along = (t: number): number[] => centroid.map((c, k) => c + t * (worst.x[k] - c));
    const reflected = along(-1);
    const vr = value(reflected);
    evals++;
    if (vr < best.v) {
      const expanded = along(-2);
      const ve = value(expanded);
      evals++;
      simplex[n] = ve < vr ? { x: expanded, v: ve } : { x: reflected, v: vr };
    } else if (vr < simplex[n - 1].v) {
      simplex[n] = { x: reflected, v: vr };
    } else {
      const contracted = vr < worst.v ? along(-0.5) : along(0.5);
      const vc = value(contracted);
      evals++;
      if (vc < Math.min(vr, worst.v)) simplex[n] = { x: contracted, v: vc };
      else {
        for (let i = 1; i <= n; i++) {
          const x = simplex[i].x.map((xi, k) => best.x[k] + 0.5 * (xi - best.x[k]));
          simplex[i] = { x, v: value(x) };
          evals++;
        }
      }
    }
  }
  simplex.sort((a, b) => a.v - b.v);
  return simplex[0].x;
}
