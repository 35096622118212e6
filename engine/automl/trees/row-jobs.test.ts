import { Rng } from '../random';
import { mergePartitionParts, partRange, partitionPart } from './row-jobs';
import { allRows } from './testutil';

describe('row jobs', () => {
  it('a partition in parts, merged, equals the serial stable partition', () => {
    const rng = new Rng(5);
    const n = 1003;
    const bins = Uint8Array.from({ length: n }, () => rng.int(8));
    const mask = Uint8Array.from([1, 0, 0, 1, 1, 0, 1, 0]);
    const serial = allRows(n);
    const scratch = new Uint32Array(n);
    const l = 7 + partitionPart(serial, scratch, bins, mask, 7, 990);
    serial.set(scratch.subarray(7, 7 + (990 - l)), l);
    for (const parts of [1, 2, 4, 7]) {
      const index = allRows(n);
      const lefts = new Int32Array(parts);
      for (let c = 0; c < parts; c++) {
        const [a, b] = partRange(990 - 7, parts, c);
        lefts[c] = partitionPart(index, scratch, bins, mask, 7 + a, 7 + b);
      }
      expect(mergePartitionParts(index, scratch, 7, 990, parts, lefts)).toBe(l);
      expect(Array.from(index)).toEqual(Array.from(serial));
    }
  });
});
