import type { DataSource } from 'typeorm';
import { Dataset, DatasetVersion } from '../../entities';
import type { ColumnProfile, DatasetProfile } from '../../engine/data';
import type { Block, Cell, Section } from '../../engine/reports';
import { fmt } from './model-sections';
import { dataReading, targetBalance } from './readings';

/** Columns listed in a data summary; wider tables say how many more there are. */
const MAX_COLUMNS_LISTED = 60;
/** A column missing more than this share of its values is named in the reading. */
const MANY_MISSING_PERCENT = 20;

/**
 * Profiles a version whose statistics are not stored yet (stores them on it). The report job passes one, so a data
 * summary never says "no statistics" for data that can be profiled; absent, the summary goes without.
 */
export type ProfileVersion = (versionId: string) => Promise<unknown>;

/** The training data of a model or experiment: size, quality checks and a per-column profile. */
export async function dataSummarySection(ds: DataSource, versionId: string, target: string | null, id = 'data-summary', profileVersion?: ProfileVersion): Promise<Section> {
  let version = await ds.getRepository(DatasetVersion).findOneBy({ id: versionId });
  if (!version) return { id, title: 'Data summary', blocks: [{ type: 'note', text: 'The dataset version this was trained on has been deleted.' }] };
  if (!version.statistics && profileVersion) {
    await profileVersion(version.id);
    version = (await ds.getRepository(DatasetVersion).findOneBy({ id: versionId })) ?? version;
  }
  const dataset = await ds.getRepository(Dataset).findOneBy({ id: version.datasetId });
  const quality = version.quality as { overall_score?: number; checks?: { name: string; passed: boolean; details: string }[] };
  const score = typeof quality.overall_score === 'number' ? quality.overall_score : null;
  const name = `${dataset?.name ?? '(deleted)'} v${version.version}`;
  const blocks: Block[] = [
    {
      type: 'keyValues',
      items: [
        ['dataset', name],
        ['rows', version.rowCount],
        ['columns', version.columnCount],
        ['target', target],
        ['quality score', score === null ? null : `${fmt(score, 1)} of 100`],
      ],
    },
  ];
  // Checks that need a target were made on the version's guessed target; the experiment's own target is read below.
  const checks = (quality.checks ?? []).filter((c) => !(target && c.name === 'class_imbalance'));
  if (checks.length) {
    blocks.push({ type: 'table', columns: ['quality check', 'passed', 'details'], rows: checks.map((c) => [c.name, c.passed ? 'yes' : 'no', c.details]) });
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
  if (!profile) blocks.push({ type: 'note', text: 'The per-column statistics could not be computed for this version.' });
  const reading = dataReading({
    dataset: name,
    rows: version.rowCount,
    columns: version.columnCount,
    target,
    score,
    failedChecks: checks.filter((c) => !c.passed).map((c) => c.name.replace(/_/g, ' ')),
    balance: target ? targetBalance(profile?.columns?.[target]) : null,
    missingColumns: Object.entries(profile?.columns ?? {})
      .filter(([, p]) => p.missing_percent > MANY_MISSING_PERCENT)
      .map(([c]) => c),
  });
  return { id, title: 'Data summary', reading, blocks };
}

function describe(p: ColumnProfile): Cell {
  if (p.type === 'numeric') return p.mean === null ? null : `mean ${fmt(p.mean, 3)}, range ${fmt(p.min, 3)} to ${fmt(p.max, 3)}`;
  const top = Object.entries(p.top_values ?? {}).slice(0, 3);
  return top.length ? `top: ${top.map(([v, n]) => `${v} (${n.toLocaleString('en-US')})`).join(', ')}` : null;
}
