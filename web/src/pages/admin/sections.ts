import type { FunctionComponent } from 'preact';
import { AdminApiKeysPage } from './api-keys';
import { AdminLogsPage } from './logs';
import { AdminSecurityPage } from './security';
import { AdminSettingsPage } from './settings';
import { AdminUsersPage } from './users';
import { AdminSso } from './sso';
import { AdminTeams } from './teams';
import { AdminPlans } from './plans';
import { AdminRetentionPage } from './retention';
import { AdminAuditPage } from './audit';

/**
 * The admin area's sections, in the order of its navigation: each is `/app/admin/<path>`, drawn by `component`
 * (which takes no props; it reads anything deeper, such as a selected row, from the location). Every part of the
 * admin area adds its line here.
 */
export interface AdminSection {
  /** One path segment: `users` is `/app/admin/users`. */
  path: string;
  label: string;
  component: FunctionComponent;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  { path: 'users', label: 'Users', component: AdminUsersPage },
  { path: 'api-keys', label: 'API keys', component: AdminApiKeysPage },
  { path: 'settings', label: 'Settings', component: AdminSettingsPage },
  { path: 'security', label: 'Security events', component: AdminSecurityPage },
  { path: 'logs', label: 'Service logs', component: AdminLogsPage },
  { path: 'sso', label: 'Single sign-on', component: AdminSso },
  { path: 'teams', label: 'Teams', component: AdminTeams },
  { path: 'plans', label: 'Plans', component: AdminPlans },
  { path: 'retention', label: 'Retention', component: AdminRetentionPage },
  { path: 'audit', label: 'Audit log', component: AdminAuditPage },
];
