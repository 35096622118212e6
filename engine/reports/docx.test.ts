import { experimentDocument } from '../../bench/reports/fixtures';
import { formatNumber } from './cells';
import { figureBlocks } from './figures';
import { renderReport } from './index';
import { hostileDocument, HOSTILE, INTERNATIONAL, unzip } from './test-helpers';

/** The visible text of each paragraph of word/document.xml whose style is `style`. */
function paragraphsWithStyle(xml: string, style: string): string[] {
  const out: string[] = [];
  for (const p of xml.match(/<w:p[ >][\s\S]*?<\/w:p>/g) ?? []) {
    if (p.includes(`<w:pStyle w:val="${style}"/>`)) out.push(runText(p));
  }
  return out;
}

function runText(xml: string): string {
  return [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => unescapeXml(m[1])).join('');
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Each table's rows, each row's cell texts. */
function tables(xml: string): string[][][] {
  return (xml.match(/<w:tbl>[\s\S]*?<\/w:tbl>/g) ?? []).map((t) => (t.match(/<w:tr[ >][\s\S]*?<\/w:tr>/g) ?? []).map((r) => (r.match(/<w:tc>[\s\S]*?<\/w:tc>/g) ?? []).map(runText)));
}

test('a 20-model experiment DOCX has Heading styles, the meta block, tables with their figures and the chart pictures', async () => {
  const doc = experimentDocument(20);
  const { bytes, contentType, extension } = await renderReport(doc, 'docx');
  expect(extension).toBe('docx');
  expect(contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  const files = unzip(bytes);
  const xml = files.get('word/document.xml')?.toString('utf8') ?? '';

  expect(paragraphsWithStyle(xml, 'Title')).toEqual(['Experiment report: Titanic survival']);
  expect(paragraphsWithStyle(xml, 'Heading1')).toEqual([
    '1 Summary',
    '2 Data summary',
    '3 Leaderboard',
    '4 Pareto front: AUC against training time',
    '5 Variable importance',
    `6 Best model: ${doc.sections[5].title.replace('Best model: ', '')}`,
    '7 Learning curves',
    '8 Hyperparameters',
    '9 Engine log',
  ]);
  expect(paragraphsWithStyle(xml, 'Heading2')).toEqual(['6.1 Metrics at the operating threshold', '6.2 Confusion matrix', '6.3 ROC and precision-recall curves']);
  // The heading styles carry outline levels (Word's navigation pane), and a TOC field lists levels 1-2.
  const styles = files.get('word/styles.xml')?.toString('utf8') ?? '';
  expect(styles).toMatch(/w:styleId="Heading1"[\s\S]*?<w:outlineLvl w:val="0"\/>/);
  expect(xml).toContain('TOC \\h \\o &quot;1-2&quot;');

  const all = tables(xml);
  // The meta block comes first, as label and value rows.
  expect(all[0]).toEqual(
    expect.arrayContaining([
      ['Project', 'Passenger analytics'],
      ['Kind', 'experiment'],
    ]),
  );
  const leaderboard = all.find((t) => t[0][1] === 'Model' && t[0][0] === 'Rank');
  expect(leaderboard).toHaveLength(21);
  const lb = doc.sections.find((s) => s.id === 'leaderboard')?.blocks[0];
  if (lb?.type !== 'table') throw new Error('no leaderboard');
  expect(leaderboard?.[1]).toEqual(lb.rows[0].map((c) => (typeof c === 'number' ? formatNumber(c) : c)));
  expect(leaderboard?.[1][3]).toMatch(/^0\.\d{4}$/);
  // Header rows repeat on every page.
  expect(xml).toContain('<w:tblHeader/>');

  const pictures = [...files.keys()].filter((k) => k.startsWith('word/media/') && k.endsWith('.png'));
  expect(pictures).toHaveLength(figureBlocks(doc).length);
  for (const p of pictures) expect(files.get(p)?.readUInt32BE(16)).toBeGreaterThanOrEqual(1000); // 2x pictures

  const footer = [...files.entries()]
    .filter(([k]) => /^word\/footer\d*\.xml$/.test(k))
    .map(([, v]) => v.toString('utf8'))
    .join('');
  expect(footer).toContain('PAGE');
  expect(footer).toContain('NUMPAGES');
});

test('hostile and non-Latin user text reads back as the same text from well-formed XML', async () => {
  const { bytes } = await renderReport(hostileDocument(), 'docx');
  const xml = unzip(bytes).get('word/document.xml')?.toString('utf8') ?? '';
  expect(xml).not.toContain('<script>');
  // Control characters are dropped: XML 1.0 cannot hold them.
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  expect(paragraphsWithStyle(xml, 'Title')).toEqual([`Report ${HOSTILE}`]);
  expect(runText(xml)).toContain(INTERNATIONAL);
  const long = tables(xml).find((t) => t[0][0] === 'Row label');
  expect(long).toHaveLength(151);
  expect(long?.[4][3]).toBe(HOSTILE);
  expect(long?.[6][2]).toBe('—');
});
