import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetSource, queryRows, toJsonSafe, withConnection } from './duck';
import { DataValidationError, UnsupportedFileTypeError } from './errors';
import { ingestFile, IngestResult } from './ingest';
import { dataset, fixture, tempDir } from './test-helpers';

const tmp = tempDir('ingest-test');
afterAll(() => tmp.cleanup());
let seq = 0;

/** Writes `content` to a fresh file named `name` and ingests it into a fresh folder. */
async function ingestBytes(name: string, content: Buffer | string): Promise<IngestResult> {
  seq += 1;
  const src = join(tmp.dir, `${seq}-${name}`);
  writeFileSync(src, content);
  return ingestFile(src, join(tmp.dir, `out-${seq}`));
}

async function readBack(res: IngestResult): Promise<Record<string, unknown>[]> {
  return withConnection(async (conn) => {
    const rows = await queryRows(conn, `SELECT * FROM ${parquetSource(res.parquet_path)}`);
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toJsonSafe(v)])));
  });
}

function dtypes(res: IngestResult): Record<string, string> {
  return Object.fromEntries(res.columns.map((c) => [c.name, c.dtype]));
}

describe('shared datasets', () => {
  const withHeader: [string, number, number][] = [
    ['titanic', 891, 15],
    ['penguins', 344, 7],
    ['diamonds', 53940, 10],
    ['taxis', 6433, 14],
    ['mpg', 398, 9],
  ];
  const headerless: [string, number, number][] = [
    ['pima-indians-diabetes', 768, 9],
    ['banknote_authentication', 1372, 5],
    ['winequality-red', 1599, 12],
    ['german', 1000, 21],
  ];
  const results: Record<string, IngestResult> = {};
  beforeAll(async () => {
    for (const [name] of [...withHeader, ...headerless]) {
      results[name] = await ingestFile(dataset(name), join(tmp.dir, `ds-${name}`));
    }
  });

  test.each(withHeader)('%s has a header, %d rows, %d columns', (name, rows, cols) => {
    const r = results[name];
    expect(r).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ',', has_header: true, row_count: rows, column_count: cols });
    expect(r.columns.some((c) => c.name.startsWith('column_'))).toBe(false);
    expect(r.stored_bytes).toBeGreaterThan(0);
  });

  test.each(headerless)('%s is headerless with generated names, %d rows, %d columns', (name, rows, cols) => {
    const r = results[name];
    expect(r).toMatchObject({ has_header: false, row_count: rows, column_count: cols });
    expect(r.columns.map((c) => c.name)).toEqual(Array.from({ length: cols }, (_, i) => `column_${i + 1}`));
  });

  test('dtypes follow the contract mapping', () => {
    expect(dtypes(results.titanic)).toMatchObject({
      survived: 'int64', age: 'float64', sex: 'category', adult_male: 'bool', alone: 'bool', deck: 'category',
    });
    expect(dtypes(results.taxis)).toMatchObject({ pickup: 'datetime64', dropoff: 'datetime64', pickup_zone: 'object', payment: 'category' });
    expect(dtypes(results.mpg)).toMatchObject({ name: 'object', horsepower: 'float64', origin: 'category' });
    expect(dtypes(results.diamonds)).toMatchObject({ cut: 'category', price: 'int64', carat: 'float64' });
    expect(dtypes(results.german)).toMatchObject({ column_1: 'category', column_2: 'int64' });
  });
});

describe('Parquet input', () => {
  test('pyarrow file keeps its column types', async () => {
    const res = await ingestFile(fixture('pyarrow_types.parquet'), join(tmp.dir, 'pq'));
    expect(res).toMatchObject({ format: 'parquet', encoding: null, delimiter: null, row_count: 12, column_count: 7 });
    expect(dtypes(res)).toEqual({
      i32: 'int64', f32: 'float64', flag: 'bool', ts: 'datetime64', day: 'datetime64', color: 'category', label: 'object',
    });
    const rows = await readBack(res);
    expect(rows[0]).toMatchObject({ i32: null, f32: 0, flag: true, ts: '2024-01-01T12:00:00.000Z', color: 'red' });
    expect(rows[1].i32).toBe(1);
  });

  test('detected by content even when named .csv', async () => {
    seq += 1;
    const src = join(tmp.dir, 'looks-like.csv');
    copyFileSync(fixture('pyarrow_types.parquet'), src);
    const res = await ingestFile(src, join(tmp.dir, 'pq-named-csv'));
    expect(res.format).toBe('parquet');
  });

  test('truncated Parquet is a validation error', async () => {
    await expect(ingestBytes('bad.parquet', Buffer.from('PAR1 not really parquet'))).rejects.toThrow(DataValidationError);
  });
});

describe('CSV dialects and encodings', () => {
  test('semicolon-separated', async () => {
    const res = await ingestBytes('semi.csv', 'name;score;city\nAnna;1,5;Köln\nBen;2,5;Berlin\nCara;3,0;Köln\n');
    expect(res).toMatchObject({ delimiter: ';', has_header: true, row_count: 3, column_count: 3 });
    expect((await readBack(res))[0]).toMatchObject({ name: 'Anna', city: 'Köln' });
  });

  test('tab-separated', async () => {
    const res = await ingestBytes('tab.tsv', 'a\tb\n1\tx\n2\ty\n');
    expect(res).toMatchObject({ delimiter: '\t', row_count: 2 });
  });

  test('Latin-1 with accents is transcoded', async () => {
    const res = await ingestBytes('latin1.csv', Buffer.from('ville,pays\nMontréal,Canada\nZürich,Schweiz\nSão Paulo,Brasil\n', 'latin1'));
    expect(res.encoding).toBe('windows-1252');
    expect((await readBack(res)).map((r) => r.ville)).toEqual(['Montréal', 'Zürich', 'São Paulo']);
  });

  test('Windows-1252 bytes that only look invalid after the first 64 KiB', async () => {
    const ascii = 'id,name\n' + Array.from({ length: 8000 }, (_, i) => `${i},plain${i}`).join('\n') + '\n';
    // 0x93/0x94 are Windows-1252 curly quotes, 0xE9 is é: invalid as UTF-8, and only after byte 64 Ki.
    const bytes = Buffer.concat([Buffer.from(ascii), Buffer.from('8000,'), Buffer.from([0x93]), Buffer.from('quoted'), Buffer.from([0x94]), Buffer.from(' caf'), Buffer.from([0xe9, 0x0a])]);
    expect(Buffer.byteLength(ascii)).toBeGreaterThan(64 * 1024);
    const res = await ingestBytes('late.csv', bytes);
    expect(res.encoding).toBe('windows-1252');
    expect(res.row_count).toBe(8001);
    expect((await readBack(res))[8000].name).toBe('\u201cquoted\u201d café');
  });

  test('UTF-16 LE with BOM', async () => {
    const text = 'nom,âge\nÉlodie,31\nJürgen,45\n';
    const res = await ingestBytes('u16le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(res).toMatchObject({ encoding: 'utf-16le', row_count: 2, column_count: 2 });
    expect(res.columns.map((c) => c.name)).toEqual(['nom', 'âge']);
    expect((await readBack(res))[0]).toEqual({ nom: 'Élodie', âge: 31 });
  });

  test('UTF-16 BE with BOM', async () => {
    const le = Buffer.from('x,y\n1,ü\n2,ö\n', 'utf16le');
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 2) {
      be[i] = le[i + 1];
      be[i + 1] = le[i];
    }
    const res = await ingestBytes('u16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    expect(res).toMatchObject({ encoding: 'utf-16be', row_count: 2 });
    expect((await readBack(res))[0]).toEqual({ x: 1, y: 'ü' });
  });

  test('UTF-8 with BOM: the BOM does not leak into the first name', async () => {
    const res = await ingestBytes('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,ort\n1,Genève\n2,Zürich\n')]));
    expect(res.encoding).toBe('utf-8-bom');
    expect(res.columns.map((c) => c.name)).toEqual(['id', 'ort']);
  });

  test('quoted fields with embedded newlines, delimiters and quotes', async () => {
    const res = await ingestBytes('quoted.csv', 'id,text\n1,"line one\nline two"\n2,"a, b and ""c"""\n3,plain\n');
    expect(res.row_count).toBe(3);
    const rows = await readBack(res);
    expect(rows[0].text).toBe('line one\nline two');
    expect(rows[1].text).toBe('a, b and "c"');
  });

  test('headerless all-numeric file gets column_N names', async () => {
    const res = await ingestBytes('nums.csv', '1,2.5,3\n4,5.5,6\n7,8.5,9\n');
    expect(res.has_header).toBe(false);
    expect(res.columns).toEqual([
      { name: 'column_1', dtype: 'int64' },
      { name: 'column_2', dtype: 'float64' },
      { name: 'column_3', dtype: 'int64' },
    ]);
  });

  test('CRLF line endings', async () => {
    const res = await ingestBytes('crlf.csv', 'a,b\r\n1,x\r\n2,y\r\n');
    expect(res).toMatchObject({ row_count: 2, column_count: 2 });
    expect((await readBack(res))[1]).toEqual({ a: 2, b: 'y' });
  });
});

describe('rejected inputs', () => {
  test('empty file', async () => {
    await expect(ingestBytes('empty.csv', '')).rejects.toThrow(new DataValidationError('File is empty'));
  });

  test('whitespace-only and BOM-only files are empty', async () => {
    await expect(ingestBytes('ws.csv', '\n\n  \n')).rejects.toThrow('File is empty');
    await expect(ingestBytes('bomonly.csv', Buffer.from([0xef, 0xbb, 0xbf]))).rejects.toThrow('File is empty');
  });

  test('binary garbage named .csv', async () => {
    let x = 12345;
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = x >> 16;
    }
    const err = await ingestBytes('garbage.csv', bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedFileTypeError);
    expect((err as Error).message).toBe('Unsupported file type');
  });

  test('gzip and zip content are unsupported', async () => {
    await expect(ingestBytes('a.csv', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 1, 2]))).rejects.toThrow(UnsupportedFileTypeError);
    await expect(ingestBytes('b.csv', Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1'))).rejects.toThrow(UnsupportedFileTypeError);
  });

  test('a row with too few fields', async () => {
    await expect(ingestBytes('short.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8\n')).rejects.toThrow(
      new DataValidationError('Ragged rows: line 3 has 2 fields but 3 were expected; every row must have the same number of fields'),
    );
  });

  test('a row with too many fields', async () => {
    await expect(ingestBytes('long.csv', 'a,b,c\n1,2,3\n4,5,6,7\n6,7,8\n')).rejects.toThrow(/Ragged rows: line 3 has 4 fields but 3/);
  });

  test('a ragged row far beyond the sniffer sample', async () => {
    const body = Array.from({ length: 30000 }, (_, i) => `${i},${i * 2}`).join('\n');
    await expect(ingestBytes('late-ragged.csv', `a,b\n${body}\n1,2,3\n`)).rejects.toThrow(/Ragged rows: line 30002 has 3 fields but 2/);
  });
});
