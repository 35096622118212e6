import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { preview, sample, writeCsv, writeXlsx } from './export';
import { ingestFile } from './ingest';
import { dataset, tempDir } from './test-helpers';
import { columnLetter, rowXml } from './xlsx';

const tmp = tempDir('export-test');
let taxis = '';
let titanic = '';
beforeAll(async () => {
  taxis = (await ingestFile(dataset('taxis'), join(tmp.dir, 'taxis'))).parquet_path;
  titanic = (await ingestFile(dataset('titanic'), join(tmp.dir, 'titanic'))).parquet_path;
});
afterAll(() => tmp.cleanup());

/** Reads every entry of a ZIP via its central directory (enough for the files yazl writes). */
function unzip(buf: Buffer): Map<string, string> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataStart, dataStart + size);
    out.set(name, (method === 8 ? inflateRawSync(raw) : raw).toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

test('preview is JSON-safe: numbers, ISO timestamps, booleans', async () => {
  const rows = await preview(taxis, 3);
  expect(rows).toHaveLength(3);
  expect(rows[0]).toMatchObject({ pickup: '2019-03-23T20:21:09.000Z', passengers: 1, fare: 7, color: 'yellow' });
  expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
  const t = await preview(titanic, 1);
  expect(t[0]).toMatchObject({ survived: 0, adult_male: true, deck: null });
});

test('sample is reproducible for a seed, differs across seeds, respects n', async () => {
  const a = await sample(titanic, 25, 7);
  const b = await sample(titanic, 25, 7);
  const c = await sample(titanic, 25, 8);
  expect(a).toHaveLength(25);
  expect(a).toEqual(b);
  expect(c).not.toEqual(a);
  expect(await sample(titanic, 5000, 1)).toHaveLength(891);
});

test('writeCsv round-trips through ingest', async () => {
  const out = join(tmp.dir, 'titanic.csv');
  await writeCsv(titanic, out);
  const lines = readFileSync(out, 'utf8').split('\n');
  expect(lines[0]).toBe('survived,pclass,sex,age,sibsp,parch,fare,embarked,class,who,adult_male,deck,embark_town,alive,alone');
  const again = await ingestFile(out, join(tmp.dir, 'titanic-again'));
  expect(again.row_count).toBe(891);
  expect(again.columns.find((c) => c.name === 'adult_male')?.dtype).toBe('bool');
});

test('writeXlsx produces a valid workbook with every row', async () => {
  const out = join(tmp.dir, 'taxis.xlsx');
  await writeXlsx(taxis, out);
  const files = unzip(readFileSync(out));
  expect([...files.keys()].sort()).toEqual([
    '[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml',
  ]);
  const sheet = files.get('xl/worksheets/sheet1.xml') as string;
  expect(sheet.match(/<row /g)).toHaveLength(6434);
  expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t xml:space="preserve">pickup</t></is></c>');
  // 2019-03-23 20:21:09 as an Excel serial date-time with the date style.
  expect(sheet).toMatch(/<c r="A2" s="1"><v>43547\.84802083\d*<\/v><\/c>/);
  expect(sheet).toContain('<c r="C2"><v>1</v></c>');
  expect(sheet.endsWith('</sheetData></worksheet>')).toBe(true);
});

test('xlsx cells escape XML and drop control characters; column letters', () => {
  expect(rowXml(2, ['a<b & "c"\u0001', null, true])).toBe(
    '<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">a&lt;b &amp; &quot;c&quot;</t></is></c><c r="C2" t="b"><v>1</v></c></row>',
  );
  expect([0, 25, 26, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
});
