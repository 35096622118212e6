import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile, STORED_FILE_NAME } from './ingest';
import { tempDir } from './test-helpers';
import { typicalValues } from './typical-values';

describe('typicalValues', () => {
  it('gives medians (int64 rounded), the most frequent other value with its row count, and nothing for absent columns', async () => {
    const { dir, cleanup } = tempDir('typical');
    try {
      const lines = ['n,i,code,flag,who,empty'];
      // code is text ('n/a'): '10' is the most frequent (3 rows), though an object iterates the integer-like key '2' first.
      const codes = ['2', '10', '2', '10', '10', 'n/a'];
      for (let k = 0; k < 6; k++) lines.push(`${k + 0.5},${k},${codes[k]},${k % 3 === 0},person${k},`);
      writeFileSync(join(dir, 't.csv'), lines.join('\n') + '\n');
      await ingestFile(join(dir, 't.csv'), join(dir, 'out'));
      const t = await typicalValues(join(dir, 'out', STORED_FILE_NAME), ['n', 'i', 'code', 'flag', 'who', 'empty', 'nope']);
      expect(t.n).toEqual({ dtype: 'float64', value: 3, support: 6 });
      expect(t.i).toEqual({ dtype: 'int64', value: 3, support: 6 }); // median 2.5, rounded
      expect(t.code).toMatchObject({ value: '10', support: 3 });
      expect(t.flag).toMatchObject({ dtype: 'bool', value: false, support: 4 });
      expect(t.who.support).toBe(1);
      expect(t.empty).toMatchObject({ value: null, support: 0 });
      expect(Object.hasOwn(t, 'nope')).toBe(false);
    } finally {
      cleanup();
    }
  });
});
