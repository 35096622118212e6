/** The nodes of a tree while it grows, frozen into the flat Tree (with raw thresholds and category sets) at the end. */
import { BinnedData } from '../binning';
import { Split } from './split';
import { BinRoutes, Tree } from './tree';

/** Accumulates nodes in growable arrays during growth, then freezes them into a Tree. */
export class TreeBuilder {
  feature: number[] = [];
  masks: (Uint8Array | null)[] = [];
  bin: number[] = [];
  defaultLeft: number[] = [];
  left: number[] = [];
  right: number[] = [];
  value: number[] = [];
  cover: number[] = [];
  count: number[] = [];
  gain: number[] = [];

  add(H: number, C: number, value: number): number {
    this.feature.push(-1);
    this.masks.push(null);
    this.bin.push(-1);
    this.defaultLeft.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(value);
    this.cover.push(H);
    this.count.push(C);
    this.gain.push(0);
    return this.feature.length - 1;
  }

  setSplit(id: number, split: Split, l: number, r: number): void {
    this.feature[id] = split.feature;
    this.masks[id] = split.mask;
    if (!split.mask) {
      this.bin[id] = split.bin;
      this.defaultLeft[id] = split.defaultLeft;
    }
    this.left[id] = l;
    this.right[id] = r;
    this.gain[id] = split.gain;
  }

  /** The binned-row traversal; after finish(), which may flip category masks along with their children. */
  routes(): BinRoutes {
    return { bin: Int32Array.from(this.bin), masks: this.masks };
  }

  /** Converts bin masks into raw thresholds and category sets. */
  finish(data: BinnedData): Tree {
    const n = this.feature.length;
    const t: Tree = {
      feature: Int32Array.from(this.feature),
      threshold: new Float64Array(n),
      categorical: new Uint8Array(n),
      catStart: new Int32Array(n),
      catLength: new Int32Array(n),
      catCodes: new Int32Array(0),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      defaultLeft: new Uint8Array(n),
      value: Float64Array.from(this.value),
      cover: Float64Array.from(this.cover),
      count: Float64Array.from(this.count),
      gain: Float64Array.from(this.gain),
    };
    const codes: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = this.feature[i];
      if (f < 0) continue;
      const feat = data.features[f];
      const mask = this.masks[i];
      if (!mask) {
        t.defaultLeft[i] = this.defaultLeft[i];
        t.threshold[i] = feat.upper[this.bin[i]];
        continue;
      }
      t.defaultLeft[i] = mask[feat.nbins];
      t.categorical[i] = 1;
      const leftSet: number[] = [];
      const rightSet: number[] = [];
      for (let b = 0; b < feat.nbins; b++) for (const c of feat.codesOfBin[b]) (mask[b] ? leftSet : rightSet).push(c);
      let set = leftSet;
      // Store the shorter side: the ONNX export turns each stored category into one node.
      if (rightSet.length < leftSet.length) {
        set = rightSet;
        const l = t.left[i];
        t.left[i] = t.right[i];
        t.right[i] = l;
        t.defaultLeft[i] = mask[feat.nbins] ? 0 : 1;
        mask.forEach((v, k) => (mask[k] = v ? 0 : 1));
      }
      set.sort((a, b) => a - b);
      t.catStart[i] = codes.length;
      t.catLength[i] = set.length;
      codes.push(...set);
    }
    t.catCodes = Int32Array.from(codes);
    return t;
  }
}
