/**
 * Tensor ops over the transformer's row layout ([scalars | one-hot spans grouped by width]): each width group is
 * one reshape to [rows, count, width], so a softmax or log-sum-exp over every span costs one op per group.
 */
import * as tf from '@tensorflow/tfjs';
import { activate, fusedAvailable } from './fused';
import { gumbelTensor } from './noise';
import type { NeuralRng } from './rng';
import type { Layout } from './transformer';

/** Gumbel-softmax temperature of CTGAN's discrete outputs. */
export const GUMBEL_TAU = 0.2;

/**
 * CTGAN's `_apply_activate`: tanh on the scalars and a (soft) Gumbel-softmax with temperature 0.2 on every span,
 * its noise drawn from `rng`. Without `rng` the spans get a plain softmax.
 */
export function applyActivate(logits: tf.Tensor2D, layout: Layout, rng?: NeuralRng): tf.Tensor2D {
  const rows = logits.shape[0];
  const softWidth = layout.dim - layout.nScalar;
  if (fusedAvailable()) return activate(logits, rng && softWidth > 0 ? (gumbelTensor([rows, softWidth], rng) as tf.Tensor2D) : null, layout.nScalar, layout.spans, GUMBEL_TAU);
  const parts: tf.Tensor2D[] = [];
  if (layout.nScalar > 0) parts.push(tf.tanh(tf.slice(logits, [0, 0], [rows, layout.nScalar])));
  if (softWidth > 0) {
    let soft = tf.slice(logits, [0, layout.nScalar], [rows, softWidth]);
    if (rng) soft = tf.mul(tf.add(soft, gumbelTensor([rows, softWidth], rng)), 1 / GUMBEL_TAU);
    for (const g of layout.groups) {
      const block = tf.slice(soft, [0, g.offset - layout.nScalar], [rows, g.count * g.width]);
      parts.push(g.width === 1 ? tf.onesLike(block) : tf.reshape(tf.softmax(tf.reshape(block, [rows, g.count, g.width])), [rows, g.count * g.width]));
    }
  }
  return parts.length === 1 ? parts[0] : tf.concat(parts, 1);
}

/** log-sum-exp of every span's logits: [rows, spans], spans in layout order. */
export function spanLogSumExp(logits: tf.Tensor2D, layout: Layout): tf.Tensor2D {
  const rows = logits.shape[0];
  const parts = layout.groups.map((g) => tf.logSumExp(tf.reshape(tf.slice(logits, [0, g.offset], [rows, g.count * g.width]), [rows, g.count, g.width]), 2) as tf.Tensor2D);
  return parts.length === 1 ? parts[0] : tf.concat(parts, 1);
}

/**
 * Summed cross-entropy of the spans selected by `spanMask` ([rows, spans]; null selects all) against the one-hots in
 * `target` ([rows, dim - nScalar], zero outside the selected spans): sum(mask * logsumexp) - sum(target * logits).
 * CTGAN's conditional loss is this over the conditioned column, divided by the batch size; TVAE's reconstruction
 * loss sums it over every span.
 *
 * Its gradient is written out (mask * softmax - target per span) rather than taped: the taped log-sum-exp costs
 * several kernels per width group (its max, its arg-max mask...) for a gradient known in closed form.
 */
export function spanCrossEntropySum(logits: tf.Tensor2D, layout: Layout, target: tf.Tensor2D, spanMask: tf.Tensor2D | null): tf.Scalar {
  const rows = logits.shape[0];
  const soft = layout.dim - layout.nScalar;
  const f = tf.customGrad(((lg: tf.Tensor2D, save: tf.GradSaveFunc) => {
    // Saved (kept for the backward pass) rather than captured: they may be intermediates of the taped forward.
    save(spanMask ? [lg, target, spanMask] : [lg, target]);
    const lse = spanLogSumExp(lg, layout);
    const picked = tf.sum(tf.mul(tf.slice(lg, [0, layout.nScalar], [rows, soft]), target));
    const value = tf.sub(spanMask ? tf.sum(tf.mul(lse, spanMask)) : tf.sum(lse), picked) as tf.Scalar;
    return {
      value,
      gradFunc: (dy: tf.Scalar, saved: tf.Tensor[]) => {
        const [x, tg, mask] = saved as tf.Tensor2D[];
        const parts: tf.Tensor[] = layout.nScalar > 0 ? [tf.zeros([rows, layout.nScalar])] : [];
        for (const g of layout.groups) {
          let p: tf.Tensor = tf.softmax(tf.reshape(tf.slice(x, [0, g.offset], [rows, g.count * g.width]), [rows, g.count, g.width]));
          if (mask) p = tf.mul(p, tf.reshape(tf.slice(mask, [0, g.firstSpan], [rows, g.count]), [rows, g.count, 1]));
          parts.push(tf.reshape(p, [rows, g.count * g.width]));
        }
        const probs = parts.length === 1 ? parts[0] : tf.concat(parts, 1);
        const full = layout.nScalar > 0 ? tf.concat([tf.zeros([rows, layout.nScalar]), tg], 1) : tg;
        return [tf.mul(tf.sub(probs, full), dy)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad<tf.Scalar>>[0]);
  return f(logits) as tf.Scalar;
}
