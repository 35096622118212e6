import { useState } from 'preact/hooks';
import { get, qs, type ListItem, type Page } from '../api';
import { Link, navigate } from '../router';
import { ErrorBox, fmtDate, fmtNum, Loading, Section, usePaged } from '../ui';

type ModelRow = ListItem<'/api/models'>;
type SortKey = 'created_at' | 'name' | 'algo' | 'experiment' | 'metric' | 'dataset_version' | 'deployed';

/** The table's columns: the API's sort key of each (the list is sorted and paged by the server). */
const COLUMNS: { key: SortKey; head: string; num?: boolean; cell: (m: ModelRow) => preact.ComponentChildren }[] = [
  {
    key: 'name',
    head: 'Model',
    cell: (m) => (
      <>
        <Link href={`/app/models/${m.id}`}>{m.name}</Link>
        {m.is_best && <span class="badge changed">best</span>}
      </>
    ),
  },
  {
    key: 'metric',
    head: 'Metric',
    num: true,
    cell: (m) => (m.metric_name ? `${m.metric_name} ${fmtNum(m.metric_value)}` : '–'),
  },
  { key: 'algo', head: 'Algorithm', cell: (m) => m.algo },
  { key: 'experiment', head: 'Experiment', cell: (m) => <Link href={`/app/experiments/${m.experiment_id}`}>{m.experiment_name ?? 'experiment'}</Link> },
  {
    key: 'dataset_version',
    head: 'Dataset version',
    cell: (m) => (m.dataset_id && m.dataset_version !== null ? <Link href={`/app/datasets/${m.dataset_id}`}>{`${m.dataset_name ?? 'dataset'} v${m.dataset_version}`}</Link> : '–'),
  },
  {
    key: 'deployed',
    head: 'Deployed',
    cell: (m) => (m.deployment ? <Link href={`/app/deployments/${m.deployment.id}`}>{`${m.deployment.name} (${m.deployment.stage})`}</Link> : 'no'),
  },
  { key: 'created_at', head: 'Created', cell: (m) => fmtDate(m.created_at) },
];

/**
 * Every model of a project: sortable by each column, searchable by name, algorithm and experiment, paged by the
 * API; checkboxes pick two or more to compare (the compare view's URL carries their ids).
 */
export function ModelTable({ projectId }: { projectId: string }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'created_at', dir: 'desc' });
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const list = usePaged(
    ({ limit, offset }) => get<Page<ModelRow>>(`/api/models${qs({ project_id: projectId, search: search.trim(), sort: sort.key, sort_dir: sort.dir, limit, offset })}`),
    [projectId, search, sort.key, sort.dir],
  );
  const toggleSort = (key: SortKey) => setSort((s) => (s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: key === 'metric' || key === 'created_at' ? 'desc' : 'asc' }));
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  const compareHref = `/app/projects/${projectId}/compare?models=${chosen.join(',')}`;
  return (
    <Section
      title="Models"
      actions={
        <div class="row wrap">
          <span class="muted" aria-live="polite">
            {chosen.length} chosen
          </span>
          <button type="button" disabled={chosen.length < 2 || chosen.length > 10} onClick={() => navigate(compareHref)}>
            Compare
          </button>
        </div>
      }
    >
      <label class="field">
        <span>Search models</span>
        <input type="search" value={search} placeholder="name, algorithm or experiment" onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      <p class="muted">Metric: each model's score on its experiment's ranking metric. Choose two to ten models to compare them.</p>
      <ErrorBox error={list.error} />
      {!list.data && !list.error && <Loading />}
      {list.data && list.data.items.length === 0 && <p class="muted">{search ? 'No model matches the search.' : 'No model yet: run an experiment.'}</p>}
      {list.data && list.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Models of this project">
          <table>
            <caption class="sr-only">Models of the project; column headers sort</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Compare</span>
                </th>
                {COLUMNS.map((c) => (
                  <th key={c.key} scope="col" class={c.num ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                    <button type="button" class="sort" onClick={() => toggleSort(c.key)}>
                      {c.head}
                      <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((m) => (
                <tr key={m.id}>
                  <td>
                    <input type="checkbox" aria-label={`Compare ${m.name} (${m.experiment_name ?? 'experiment'})`} checked={chosen.includes(m.id)} onChange={() => toggle(m.id)} />
                  </td>
                  {COLUMNS.map((c) => (
                    <td key={c.key} class={c.num ? 'num' : undefined}>
                      {c.cell(m)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.pager}
    </Section>
  );
}
