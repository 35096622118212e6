import { get, qs, type GetBody, type ListItem, type Page } from '../api';
import { Link } from '../router';
import { useUser } from '../session';
import { fmtNum, useAsync } from '../ui';

/** What the registry, rollout, A/B test and retraining pages share: the project, its members' names, small formats. */

type Project = GetBody<'/api/projects/{project_id}'>['project'];
type Member = ListItem<'/api/projects/{project_id}/members'>;
type ModelRow = ListItem<'/api/models'>;
export type DeploymentRow = ListItem<'/api/mlops/projects/{project_id}/deployments'>;

/** The project a page belongs to, with the caller's role (null while it loads). */
export function useProject(projectId: string | undefined): { project?: Project; error?: string } {
  const p = useAsync(() => (projectId ? get<GetBody<'/api/projects/{project_id}'>>(`/api/projects/${projectId}`).then((r) => r.project) : Promise.resolve(undefined)), [projectId]);
  return { project: p.data, error: p.error };
}

/** Whether a role may decide (approve or reject): the API lets admins and owners. */
export function mayDecide(project: Project | undefined): boolean {
  return project?.role === 'admin' || project?.role === 'owner';
}

/**
 * A user id as a person's name: "you" for the caller, a member's name, "system" for null (the registry's and
 * retraining's own actions). The member list is read once at the API's largest page (100).
 */
export function useWho(projectId: string | undefined): (id: string | null | undefined) => string {
  const { user } = useUser();
  const members = useAsync(() => (projectId ? get<Page<Member>>(`/api/projects/${projectId}/members${qs({ limit: 100 })}`) : Promise.resolve(undefined)), [projectId]);
  return (id) => {
    if (!id) return 'system';
    if (id === user.id) return 'you';
    return members.data?.items.find((m) => m.user_id === id)?.name ?? id.slice(0, 8);
  };
}

/** The project's models, newest first (the API's largest page, 500): the pickers of a candidate or a version. */
export function useProjectModels(projectId: string | undefined) {
  return useAsync(() => (projectId ? get<Page<ModelRow>>(`/api/models${qs({ project_id: projectId, limit: 500 })}`) : Promise.resolve(undefined)), [projectId]);
}

/** The project's deployments (the API's largest page, 200). */
export function useProjectDeployments(projectId: string | undefined) {
  return useAsync(() => (projectId ? get<Page<DeploymentRow>>(`/api/mlops/projects/${projectId}/deployments${qs({ limit: 200 })}`) : Promise.resolve(undefined)), [projectId]);
}

/** A model as its picker shows it: name, algorithm and experiment. */
export function modelLabel(m: ModelRow): string {
  return `${m.name} (${m.algo}${m.experiment_name ? `, ${m.experiment_name}` : ''})`;
}

/** The breadcrumb back to a project (its name once known). */
export function ProjectCrumb({ projectId, name, tab = 'deployments' }: { projectId: string; name?: string; tab?: string }) {
  return <Link href={`/app/projects/${projectId}?tab=${tab}`}>{name ?? 'Project'}</Link>;
}

/** Numeric entries of a metrics object, as `name value` pairs (nested or text values are left out). */
export function metricPairs(metrics: Record<string, unknown> | null | undefined): [string, string][] {
  return Object.entries(metrics ?? {})
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [k, fmtNum(v)]);
}

/** A few metrics in one line (`auc 0.91 · logloss 0.32`), for a table cell. */
export function metricsLine(metrics: Record<string, unknown> | null | undefined, max = 3): string {
  const pairs = metricPairs(metrics);
  return pairs.length
    ? pairs
        .slice(0, max)
        .map(([k, v]) => `${k} ${v}`)
        .join(' · ')
    : '–';
}

/** Seconds as the pages say them: `90 s`, `5 min`, `2 h`. */
export function fmtSecs(s: number | null | undefined): string {
  if (s === null || s === undefined) return '–';
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${fmtNum(s / 60, 3)} min`;
  return `${fmtNum(s / 3600, 3)} h`;
}
