/**
 * The best threshold split of a numeric feature in a node: bins 0..b go left, missing values to
 * whichever side gains more (both are tried), or the one random threshold of extremely randomized
 * trees. Scans the node's listed bins (NodeBins) in ascending order.
 */
import { NodeBins } from './node-bins';
import { TreeParams } from './params';
import { Candidate, NodeSums, splitGain, validSplit } from './split';
import { Rng } from '../random';

export function thresholdSplit(p: TreeParams, node: NodeSums, nb: NodeBins, parentScore: number, rng: Rng): Candidate | null {
  const { lo, hi, gm, hm, cm, m, bin, src, base, co, nbins } = nb;
  if (lo < 0) return null;
  // With missing rows present the last non-empty bin is a candidate too: "all values vs missing".
  const last = cm > 0 ? hi : hi - 1;
  if (!p.randomSplits && p.alpha === 0 && !(p.maxDeltaStep > 0)) return l2ThresholdSplit(p, node, nb, parentScore, last);
  let bestGain = p.gamma;
  let bestBin = -1;
  let bestMissLeft = false;
  let bestGL = 0;
  let bestHL = 0;
  let bestCL = 0;
  const consider = (b: number, GL: number, HL: number, CL: number): void => {
    // Missing right (also the only option when there are no missing rows), then missing left.
    if (validSplit(p, GL, HL, CL, node)) {
      const gain = splitGain(p, GL, HL, node, parentScore);
      if (gain > bestGain) {
        bestGain = gain;
        bestBin = b;
        bestMissLeft = false;
        bestGL = GL;
        bestHL = HL;
        bestCL = CL;
      }
    }
    if (cm > 0 && b < hi && validSplit(p, GL + gm, HL + hm, CL + cm, node)) {
      const gain = splitGain(p, GL + gm, HL + hm, node, parentScore);
      if (gain > bestGain) {
        bestGain = gain;
        bestBin = b;
        bestMissLeft = true;
        bestGL = GL + gm;
        bestHL = HL + hm;
        bestCL = CL + cm;
      }
    }
  };
  let GL = 0;
  let HL = 0;
  let CL = 0;
  if (p.randomSplits) {
    if (last < lo) return null;
    const cut = lo + rng.int(last - lo + 1);
    for (let i = 0; i < m && bin[i] <= cut; i++) {
      const s = base + 3 * bin[i];
      GL += src[s];
      HL += src[s + 1];
      CL += src[s + co];
    }
    consider(cut, GL, HL, CL);
  } else {
    for (let i = 0; i < m && bin[i] <= last; i++) {
      const s = base + 3 * bin[i];
      if (src[s + co] === 0) continue;
      GL += src[s];
      HL += src[s + 1];
      CL += src[s + co];
      consider(bin[i], GL, HL, CL);
    }
  }
  if (bestBin < 0) return null;
  return { gain: bestGain, feature: -1, mask: null, GL: bestGL, HL: bestHL, CL: bestCL, bin: bestBin, nbins, hasMissing: cm > 0, missLeft: bestMissLeft };
}

/**
 * thresholdSplit's scan for the usual case (no L1 term, no max_delta_step, not random): the same
 * candidates in the same order with the same arithmetic (score = G^2 / (H + lambda), or 0 when
 * that denominator is not positive), written out without the per-bin calls the general path makes
 * (they were the larger part of the split search's time).
 */
function l2ThresholdSplit(p: TreeParams, node: NodeSums, nb: NodeBins, parentScore: number, last: number): Candidate | null {
  const { lambda, minRows, minChildWeight, gamma } = p;
  const { hi, gm, hm, cm, m, bin, src, base, co, nbins } = nb;
  const { G, H, C } = node;
  const sc = (gs: number, hs: number): number => {
    const d = hs + lambda;
    return d <= 0 ? 0 : (gs * gs) / d;
  };
  let bestGain = gamma;
  let bestBin = -1;
  let bestMissLeft = false;
  let bestGL = 0;
  let bestHL = 0;
  let bestCL = 0;
  let GL = 0;
  let HL = 0;
  let CL = 0;
  for (let i = 0; i < m; i++) {
    const b = bin[i];
    if (b > last) break;
    const s = base + 3 * b;
    const cb = src[s + co];
    if (cb === 0) continue;
    GL += src[s];
    HL += src[s + 1];
    CL += cb;
    let CR = C - CL;
    let HR = H - HL;
    if (CL >= minRows && CR >= minRows && CL > 0 && CR > 0 && HL >= minChildWeight && HR >= minChildWeight) {
      const gain = sc(GL, HL) + sc(G - GL, HR) - parentScore;
      if (gain > bestGain) {
        bestGain = gain;
        bestBin = b;
        bestMissLeft = false;
        bestGL = GL;
        bestHL = HL;
        bestCL = CL;
      }
    }
    if (cm > 0 && b < hi) {
      const gl = GL + gm;
      const hl = HL + hm;
      const cl = CL + cm;
      CR = C - cl;
      HR = H - hl;
      if (cl >= minRows && CR >= minRows && cl > 0 && CR > 0 && hl >= minChildWeight && HR >= minChildWeight) {
        const gain = sc(gl, hl) + sc(G - gl, HR) - parentScore;
        if (gain > bestGain) {
          bestGain = gain;
          bestBin = b;
          bestMissLeft = true;
          bestGL = gl;
          bestHL = hl;
          bestCL = cl;
        }
      }
    }
  }
  if (bestBin < 0) return null;
  return { gain: bestGain, feature: -1, mask: null, GL: bestGL, HL: bestHL, CL: bestCL, bin: bestBin, nbins, hasMissing: cm > 0, missLeft: bestMissLeft };
}
