/**
 * The best category-set split of a categorical feature in a node, as LightGBM finds it: the node's
 * non-empty categories (missing counted as one) are sorted by sum_gradient / (sum_hessian +
 * cat_smooth) and the best prefix of that order goes left, which is the optimal partition for
 * squared error (Fisher 1958) and a good one in general.
 */
import { NodeBins } from './node-bins';
import { TreeParams } from './params';
import { Candidate, NodeSums, splitGain, validSplit } from './split';
import { Rng } from '../random';

/**
 * order and ratio: scratch of at least 256 entries (a feature has at most 255 bins, plus missing),
 * reused from node to node so the search allocates only the winning split's mask.
 */
export function categoricalSplit(p: TreeParams, node: NodeSums, nb: NodeBins, parentScore: number, rng: Rng, order: Int32Array, ratio: Float64Array): Candidate | null {
  const { nbins, cm } = nb;
  const catSmooth = p.catSmooth;
  // Missing values are a level of their own here, after every real one.
  let m = 0;
  const { src, base, co } = nb;
  const at = (i: number): number => base + 3 * nb.bin[i];
  for (let i = 0; i < nb.m; i++) {
    if (src[at(i) + co] > 0) {
      order[m++] = i;
      ratio[i] = src[at(i)] / (src[at(i) + 1] + catSmooth);
    }
  }
  const missing = nb.m;
  if (cm > 0) {
    order[m++] = missing;
    ratio[missing] = nb.gm / (nb.hm + catSmooth);
  }
  if (m < 2) return null;
  // By ratio, then position. A few categories are insertion-sorted in place, allocating nothing.
  const byRatio = (a: number, b: number): number => ratio[a] - ratio[b] || a - b;
  let sorted: Int32Array | number[] = order;
  if (m <= 16) {
    for (let i = 1; i < m; i++) {
      const x = order[i];
      let j = i;
      for (; j > 0 && byRatio(order[j - 1], x) > 0; j--) order[j] = order[j - 1];
      order[j] = x;
    }
  } else sorted = Array.from(order.subarray(0, m)).sort(byRatio);
  const binOf = (i: number): number => (i === missing ? nbins : nb.bin[i]);
  let bestGain = p.gamma;
  let bestK = -1;
  let bestGL = 0;
  let bestHL = 0;
  let bestCL = 0;
  let GL = 0;
  let HL = 0;
  let CL = 0;
  const cut = p.randomSplits ? rng.int(m - 1) : -1;
  for (let k = 0; k < m - 1; k++) {
    const i = sorted[k];
    GL += i === missing ? nb.gm : src[at(i)];
    HL += i === missing ? nb.hm : src[at(i) + 1];
    CL += i === missing ? cm : src[at(i) + co];
    if (cut >= 0 && k !== cut) continue;
    if (!validSplit(p, GL, HL, CL, node)) continue;
    const gain = splitGain(p, GL, HL, node, parentScore);
    if (gain > bestGain) {
      bestGain = gain;
      bestK = k;
      bestGL = GL;
      bestHL = HL;
      bestCL = CL;
    }
  }
  if (bestK < 0) return null;
  const mask = new Uint8Array(nbins + 1);
  for (let k = 0; k <= bestK; k++) mask[binOf(sorted[k])] = 1;
  if (cm === 0) mask[nbins] = bestHL >= node.H - bestHL ? 1 : 0;
  return { gain: bestGain, feature: -1, mask, GL: bestGL, HL: bestHL, CL: bestCL, bin: -1, nbins, hasMissing: false, missLeft: false };
}
