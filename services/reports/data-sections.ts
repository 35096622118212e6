import type { DataSource } from 'typeorm';
import { Dataset, DatasetVersion } from '../../entities';
import type { ColumnProfile, DatasetProfile } from '../../engine/data';
import type { Block, Cell, Section } from '../../engine/reports';
import { fmt } from './model-sections';

/** Columns listed in a data summary; wider tables say how many more there are. */
const MAX_COLUMNS_LISTED = 60;

/** The training data of a model or experiment: size, quality checks and a per-column profile. */
export async function dataSummarySection(ds: DataSource, versionId: string, target: string | null, id = 'data-summary'): Promise<Section> {
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: versionId });
  if (!version) return { id, title: 'Data summary', blocks: [{ type: 'note', text: 'The dataset version this was trained on has been deleted.' }] };
  const dataset = await ds.getRepository(Dataset).findOneBy({ id: version.datasetId });
  const quality = version.quality as { overall_score?: number; checks?: { name: string; passed: boolean; details: string }[] };
  const blocks: Block[] = [
    {
      type: 'keyValues',
      items: [
        ['dataset', `${dataset?.name ?? '(deleted)'} v${version.version}`],
        ['rows', version.rowCount],
        ['columns', version.columnCount],
        ['target', target],
        ['quality score', quality.overall_score ?? null],
      ],
    },
  ];
  if (quality.checks?.length) {
    blocks.push({ type: 'table', columns: ['quality check', 'passed', 'details'], rows: quality.checks.map((c) => [c.name, c.passed ? 'yes' : 'no', c.details]) });
  }
  const profile = version.statistics as DatasetProfile | null;
  const columns = version.columns.slice(0, MAX_COLUMNS_LISTED);
  blocks.push({
    type: 'table',
    columns: ['column', 'type', 'missing %', 'unique', 'summary'],
    rows: columns.map((c) => {
      const p = profile?.columns?.[c.name];
      return [c.name + (c.name === target ? ' (target)' : ''), c.dtype, p ? fmt(p.missing_percent, 2) : null, p ? p.unique : null, p ? describe(p) : null];
    }),
    caption: version.columns.length > columns.length ? `The first ${columns.length} of ${version.columns.length} columns.` : undefined,
  });
  if (!profile) blocks.push({ type: 'note', text: 'No statistics were computed for this version yet.' });
  return { id, title: 'Data summary', blocks };
}

function describe(p: ColumnProfile): Cell {
  if (p.type === 'numeric') return p.mean === null ? null : `mean ${fmt(p.mean, 3)}, range ${fmt(p.min, 3)} to ${fmt(p.max, 3)}`;
  const top = Object.entries(p.top_values ?? {}).slice(0, 3);
  return top.length ? `top: ${top.map(([v, n]) => `${v} (${n})`).join(', ')}` : null;
}
