import { useEffect } from 'preact/hooks';
import { get, qs, type ListItem, type Page } from './api';
import { ErrorBox, Loading, Select, useAsync } from './ui';

type DatasetItem = ListItem<'/api/datasets'>;
type VersionItem = ListItem<'/api/datasets/{dataset_id}/versions'>;

/** A dataset of a project and one of its versions (the latest unless another is picked). */
export interface DatasetVersionChoice {
  datasetId: string;
  versionId: string;
}

/**
 * Two selects: a dataset of the project, then one of its versions (newest first, the latest chosen by default).
 * Lists read the API's largest pages (500 datasets, 100 versions), which a picker needs whole.
 */
export function DatasetVersionPicker({ projectId, value, onChange }: { projectId: string; value: DatasetVersionChoice; onChange: (v: DatasetVersionChoice) => void }) {
  const datasets = useAsync(() => get<Page<DatasetItem>>(`/api/datasets${qs({ project_id: projectId, limit: 500 })}`), [projectId]);
  const dataset = datasets.data?.items.find((d) => d.id === value.datasetId);
  const versions = useAsync(() => (value.datasetId ? get<Page<VersionItem>>(`/api/datasets/${value.datasetId}/versions${qs({ limit: 100 })}`) : Promise.resolve(null)), [value.datasetId]);
  // The first dataset and its latest version are picked once they are known.
  useEffect(() => {
    const first = datasets.data?.items[0];
    if (!value.datasetId && first) onChange({ datasetId: first.id, versionId: first.dataset_version_id });
  }, [datasets.data]);
  if (datasets.error) return <ErrorBox error={datasets.error} />;
  if (!datasets.data) return <Loading />;
  if (datasets.data.items.length === 0) return <p class="muted">This project has no dataset yet: upload one in the Datasets tab.</p>;
  const versionOptions: [string, string][] = versions.data
    ? [...versions.data.items].sort((a, b) => b.version - a.version).map((v) => [v.id, `v${v.version} (${v.row_count.toLocaleString()} rows)`])
    : dataset
      ? [[dataset.dataset_version_id, `v${dataset.version} (latest)`]]
      : [];
  return (
    <>
      <Select
        label="Dataset"
        value={value.datasetId}
        options={datasets.data.items.map((d) => [d.id, d.name] as [string, string])}
        onChange={(e) => {
          const d = datasets.data!.items.find((x) => x.id === e.currentTarget.value);
          if (d) onChange({ datasetId: d.id, versionId: d.dataset_version_id });
        }}
      />
      <Select label="Version" value={value.versionId} options={versionOptions} onChange={(e) => onChange({ ...value, versionId: e.currentTarget.value })} />
    </>
  );
}
