/**
 * Row partitioning: the learner's row index, which nodes split in place (each node owns a
 * [start, end) range of it), and the split's goLeft table over bins that the partition reads.
 */
import { BinnedData } from '../binning';
import { HistogramBuilder } from './histogram';
import { JOB_PARTITION, mergePartitionParts, partRange, partitionPart } from './row-jobs';
import { Split } from './split';

/**
 * Nodes with at least this many rows are partitioned on all threads: below it, waking a helper
 * costs more than the half of the pass it would take over.
 */
export const PARALLEL_PARTITION_MIN_ROWS = 50000;

/** The row index of a TreeLearner and the partition of a node's range by its split. */
export class RowPartitioner {
  /** The rows, permuted in place; node ranges refer to it. */
  readonly index: Uint32Array;
  private readonly scratch: Uint32Array;
  /** True when index, scratch and mask live in the builder's arena and partitions run its kernel. */
  private readonly kernelPartition: boolean;
  /** Parts of a parallel partition, each part's left count, and the split's mask as helpers see it. */
  private readonly parts: number;
  private readonly lefts: Int32Array;
  private readonly mask: Uint8Array;

  /**
   * Partitions run on the builder's helper threads, and in its WebAssembly arena with its kernel
   * when it has one (partitionArrays).
   */
  constructor(
    private readonly data: BinnedData,
    private readonly builder: HistogramBuilder,
  ) {
    const shared = builder.threads > 1;
    const rowBuffer = (): Uint32Array => new Uint32Array(shared ? new SharedArrayBuffer(Math.max(8, 4 * data.nrows)) : new ArrayBuffer(4 * data.nrows), 0, data.nrows);
    const inArena = builder.partitionArrays();
    this.kernelPartition = inArena !== null;
    this.index = inArena?.index ?? rowBuffer();
    this.scratch = inArena?.scratch ?? rowBuffer();
    this.parts = 2 * builder.threads;
    this.lefts = new Int32Array(shared ? new SharedArrayBuffer(4 * this.parts) : new ArrayBuffer(4 * this.parts));
    this.mask = inArena?.mask ?? new Uint8Array(shared ? new SharedArrayBuffer(257) : new ArrayBuffer(257));
    if (shared) {
      builder.attach('index', this.index);
      builder.attach('scratch', this.scratch);
      builder.attach('lefts', this.lefts);
      builder.attach('mask', this.mask);
    }
  }

  /** Moves the rows of index[start, end) that `split` sends left before the others; returns where the right ones begin. */
  splitNode(start: number, end: number, split: Split): number {
    this.loadMask(split);
    return this.partition(start, end, split.feature);
  }

  /** Writes the split's goLeft table over bins into the mask the partition reads (helpers and kernel included). */
  private loadMask(split: Split): void {
    const mask = this.mask;
    if (split.mask) {
      mask.set(split.mask);
      return;
    }
    const nbins = this.data.features[split.feature].nbins;
    mask.fill(1, 0, split.bin + 1);
    mask.fill(0, split.bin + 1, nbins);
    mask[nbins] = split.defaultLeft;
  }

  /**
   * Stable partition: rows keep ascending order inside every node (the root's rows are sorted),
   * so histogram passes read the row-major bins at increasing addresses, which the hardware
   * prefetcher handles far better than the scattered order an in-place swap partition leaves.
   */
  private partition(start: number, end: number, feature: number): number {
    const index = this.index;
    const scratch = this.scratch;
    const bins = this.data.features[feature].bins;
    const n = end - start;
    if (this.builder.threads > 1 && n >= PARALLEL_PARTITION_MIN_ROWS) {
      // Each part is partitioned on its own, then the parts' lefts and rights are joined in part
      // order: the same permutation as one pass over the whole range.
      const { parts, lefts } = this;
      this.builder.runParts(JOB_PARTITION, parts, [start, end, feature], (c) => {
        const [a, b] = partRange(n, parts, c);
        lefts[c] = this.kernelPartition ? this.builder.partitionRows(feature, start + a, start + b) : partitionPart(index, scratch, bins, this.mask, start + a, start + b);
      });
      return mergePartitionParts(index, scratch, start, end, parts, lefts);
    }
    let left: number;
    if (this.kernelPartition) left = this.builder.partitionRows(feature, start, end);
    else left = partitionPart(index, scratch, bins, this.mask, start, end);
    const l = start + left;
    index.set(scratch.subarray(start, start + (end - l)), l);
    return l;
  }
}
