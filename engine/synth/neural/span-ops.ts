/**
 * Tensor ops over the transformer's row layout ([scalars | one-hot spans grouped by width]): each width group is
 * one reshape to [rows, count, width], so a softmax or log-sum-exp over every span costs one op per group.
 */
import * as tf from '@tensorflow/tfjs';
import type { Layout } from './transformer';

/** Gumbel-softmax temperature of CTGAN's discrete outputs. */
export const GUMBEL_TAU = 0.2;

/**
 * CTGAN's `_apply_activate`: tanh on the scalars and a (soft) Gumbel-softmax with temperature 0.2 on every span.
 * Without `gumbelSeed` the spans get a plain softmax.
 */
export function applyActivate(logits: tf.Tensor2D, layout: Layout, gumbelSeed?: number): tf.Tensor2D {
  const rows = logits.shape[0];
  const parts: tf.Tensor2D[] = [];
  if (layout.nScalar > 0) parts.push(tf.tanh(tf.slice(logits, [0, 0], [rows, layout.nScalar])));
  const softWidth = layout.dim - layout.nScalar;
  if (softWidth > 0) {
    let soft = tf.slice(logits, [0, layout.nScalar], [rows, softWidth]);
    if (gumbelSeed !== undefined) {
      // Gumbel(0, 1) noise -log(-log U), U kept off 0 and 1 so both logs stay finite.
      const u = tf.randomUniform([rows, softWidth], 1e-10, 1 - 1e-7, 'float32', gumbelSeed);
      soft = tf.div(tf.sub(soft, tf.log(tf.neg(tf.log(u)))), GUMBEL_TAU);
    }
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
 * Summed cross-entropy of the spans selected by `spanMask` ([rows, spans]) against the one-hots in `target`
 * ([rows, dim - nScalar], zero outside the selected spans): sum(mask * logsumexp) - sum(target * logits).
 * CTGAN's conditional loss is this over the conditioned column, divided by the batch size.
 */
export function spanCrossEntropySum(logits: tf.Tensor2D, layout: Layout, target: tf.Tensor2D, spanMask: tf.Tensor2D | null): tf.Scalar {
  const rows = logits.shape[0];
  const lse = spanLogSumExp(logits, layout);
  const soft = tf.slice(logits, [0, layout.nScalar], [rows, layout.dim - layout.nScalar]);
  const picked = tf.sum(tf.mul(soft, target));
  const norm = spanMask ? tf.sum(tf.mul(lse, spanMask)) : tf.sum(lse);
  return tf.sub(norm, picked);
}
