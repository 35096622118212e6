/**
 * WGAN-GP's gradient penalty on the GPU, with its weight gradients in closed form.
 *
 * The critic is Linear → LeakyReLU(0.2) → dropout blocks and a final Linear. LeakyReLU's derivative is piecewise
 * constant, so at the interpolates x̂ the critic's input gradient is a linear chain in the weights:
 *   v_{L−1} = w_out ⊙ m_{L−1} ⊙ s_{L−1},  g_l = v_l W_lᵀ,  v_{l−1} = g_l ⊙ m_{l−1} ⊙ s_{l−1},  ∇x D = g_0
 * (m the dropout masks, s the leaky slopes at x̂; the biases do not enter). The penalty is λ mean_groups (‖g_0‖ − 1)²;
 * its backward pass runs up the same chain: c_0 = d pen / d g_0, dW_l = c_lᵀ v_l, c_{l+1} = (c_l W_l) ⊙ m_l ⊙ s_l,
 * d w_out = Σ_rows c_L. The CPU engine gets the same numbers by differentiating its tape twice.
 */
import { GAN_DROPOUT, GAN_INTERPOLATE, GAN_LOSSES, GAN_PENALTY } from '../kernels-gan';
import { LINEAR_WORKGROUP } from '../kernels';
import type { GpuRuntime, Program, Tensor } from '../runtime';
import { GPU_CTGAN_CONSTANTS } from './ctgan-constants';

const GP_LAMBDA = GPU_CTGAN_CONSTANTS.gpLambda;

export interface PenaltyGraph {
  /** The critic's parameters by CPU name (`d0.w`, `d0.b`, ..., `dout.w`). */
  weight: (name: string) => Tensor;
  /** Where each weight's penalty gradient goes (the biases' stay untouched: their gradient is 0). */
  grads: (name: string) => Tensor;
  /** Input and output widths of the hidden layers (dIn[0] = the packed width). */
  dIn: number[];
  dOut: number[];
  groups: number;
  /** [2 · groups, packed width]: real groups, then fake groups. */
  packed: Tensor;
  /** [groups]: the interpolation weights. */
  alpha: Tensor;
  /** Per hidden layer [groups, dOut[l]]: the penalty pass's own dropout masks. */
  masks: Tensor[];
  /** The penalty goes to losses[2]. */
  losses: Tensor;
}

/** Records the penalty's forward pass, value and weight gradients into `p`. */
export function recordGradientPenalty(rt: GpuRuntime, p: Program, o: PenaltyGraph): void {
  const G = o.groups;
  const P = o.dIn[0];
  const L = o.dOut.length;
  const t = (label: string, sizes: number[]) => sizes.map((n, i) => rt.tensor(n, `${label}${i}`));
  const linear = (n: number) => rt.linearWorkgroups(n);
  const xhat = rt.tensor(G * P, 'penalty x');
  const a = t(
    'penalty a',
    o.dOut.map((w) => G * w),
  );
  const h = t(
    'penalty h',
    o.dOut.map((w) => G * w),
  );
  const v = t(
    'penalty v',
    o.dOut.map((w) => G * w),
  );
  const grad = t(
    'penalty g',
    o.dIn.map((w) => G * w),
  );
  const c = t(
    'penalty c',
    [...o.dIn, o.dOut[L - 1]].map((w) => G * w),
  );
  const dv = t(
    'penalty dv',
    o.dOut.map((w) => G * w),
  );

  rt.custom(p, GAN_INTERPOLATE, { a: G, b: P }, [o.packed, o.alpha, xhat], linear(G * P));
  // Forward at x̂: only the activations (their signs are the slopes) are needed, not the score.
  let x = xhat;
  for (let l = 0; l < L; l++) {
    rt.matmul(p, { a: x, b: o.weight(`d${l}.w`), c: a[l], M: G, N: o.dOut[l], K: o.dIn[l], epilogue: 'bias_act', extra: o.weight(`d${l}.b`), activation: 'leaky_relu' });
    if (l < L - 1) rt.custom(p, GAN_DROPOUT, { a: G, b: o.dOut[l], code: 0 }, [a[l], o.masks[l], a[l], h[l]], linear(G * o.dOut[l]));
    x = h[l];
  }
  // ∇x D down the chain.
  for (let l = L - 1; l >= 0; l--) {
    const w = o.dOut[l];
    const from = l === L - 1 ? o.weight('dout.w') : grad[l + 1];
    rt.custom(p, GAN_DROPOUT, { a: G, b: w, code: l === L - 1 ? 2 : 1 }, [from, o.masks[l], a[l], v[l]], linear(G * w));
    rt.matmul(p, { a: v[l], b: o.weight(`d${l}.w`), c: grad[l], M: G, N: o.dIn[l], K: w, transB: true });
  }
  const rowTerms = rt.tensor(G, 'penalty row terms');
  rt.custom(p, GAN_PENALTY, { a: G, b: P, f0: GP_LAMBDA }, [grad[0], c[0], rowTerms], linear(G * LINEAR_WORKGROUP));
  rt.custom(p, GAN_LOSSES, { a: G, b: 0, code: 2, f0: GP_LAMBDA }, [rowTerms, rowTerms, o.losses], [1, 1]);
  // Back up the chain to every weight.
  for (let l = 0; l < L; l++) {
    const [i, w] = [o.dIn[l], o.dOut[l]];
    rt.matmul(p, { a: c[l], b: v[l], c: o.grads(`d${l}.w`), M: i, N: w, K: G, transA: true });
    rt.matmul(p, { a: c[l], b: o.weight(`d${l}.w`), c: dv[l], M: G, N: w, K: i });
    rt.custom(p, GAN_DROPOUT, { a: G, b: w, code: 1 }, [dv[l], o.masks[l], a[l], c[l + 1]], linear(G * w));
  }
  rt.columnSums(p, { x: c[L], out: o.grads('dout.w'), rows: G, N: o.dOut[L - 1] });
}
