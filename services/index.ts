import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import { throttledMailer } from '../platform/mail-throttle';
import type { TemporalGateway } from '../platform/temporal-client';
import { Access } from './access';
import { AbTestService } from './ab-tests';
import { AccountActivity } from './account-activity';
import { InstanceSettingsService } from './admin/settings';
import { Superusers } from './admin/superusers';
import { AdminUsers } from './admin/users';
import { AdminApiKeys } from './admin/api-keys';
import { SecurityEvents } from './admin/security-events';
import { ServiceLogs } from './admin/service-logs';
import { FeedbackService } from './alerts/feedback';
import { AlertService } from './alerts/alerts';
import { AlertChannelService } from './alerts/channels';
import type { RuleMetrics } from './alerts/rule-test';
import { AlertRuleService } from './alerts/rules';
import { reconcileAlertSchedules, syncAlertSchedule } from './alerts/schedule';
import { DriftScheduleService, reconcileDriftSchedules } from './drift-schedule';
import { SuppressionService } from './alerts/suppression-service';
import { Accounts } from './accounts';
import { createBilling } from './billing';
import { ApiKeyService } from './api-keys';
import { ArtifactService } from './artifacts';
import { ArtifactSweep } from './artifact-sweep';
import { Authentication } from './authentication';
import { DatasetVersions } from './dataset-versions';
import { DatasetService } from './datasets';
import { InvitationService } from './invitations';
import { DeploymentService } from './deployments';
import { DriftService } from './drift';
import { ExperimentService } from './experiments';
import { InferenceLogs } from './inference-logs';
import { JobService } from './jobs';
import { JobAdmission } from './job-admission';
import { ModelServing } from './model-serving';
import { ModelService } from './models';
import { PrivacyPolicyService } from './privacy/policies';
import { PrivacySessionService } from './privacy/sessions';
import { AnonymizeStream } from './privacy/stream';
import { PrivacySessionReports } from './privacy/session-report';
import { Plans } from './plans';
import { PlanAdmin } from './plan-admin';
import { ProjectService } from './projects';
import { ProjectTeamService } from './project-teams';
import { TeamService } from './teams';
import { RegistryService } from './registry';
import { createSso } from './sso';
import { ReportService } from './reports/service';
import { createRetraining, reconcileRetrainingSchedules, type RetrainingPorts } from './retraining';
import { reconcileRetentionSchedule, RetentionService } from './retention';
import { RolloutService } from './rollouts';
import { StudioService } from './studio';
import { SynthgenService } from './synthgen/service';
import { AuditLog } from './audit/log';
import { createBuilder } from './builder';

/** What the application layer is built from: one of each per process. */
export interface ServiceDeps {
  ds: DataSource;
  store: ArtifactStore;
  config: Config;
  log: Logger;
  /** Connected on first use; processes that start no workflows never connect. */
  temporal: TemporalGateway;
  mailer: Mailer;
  /** The evaluator's metrics, for rule tests (handed in by the API, since services do not import activities). */
  ruleMetrics?: RuleMetrics;
}

export type Services = ReturnType<typeof createServices>;

/**
 * The composition root of the application layer (mirroring `createActivities`): every domain
 * command and query, built once per process and shared by the routes and the activities.
 */
export function createServices(deps: ServiceDeps) {
  const { ds, store, config, log } = deps;
  const access = new Access(ds);
  const jobs = new JobService(ds, access, deps.temporal, config, log, store);
  const datasetVersions = new DatasetVersions(ds, store);
  const experiments = new ExperimentService(ds, store, access, datasetVersions, jobs, config);
  const serving = new ModelServing(ds, store, access);
  // Every mail the services send goes through the per-recipient limit (MAIL_MAX_PER_RECIPIENT_PER_HOUR).
  const mailer = throttledMailer(deps.mailer, ds, config.mail.maxPerRecipientPerHour, log);
  const invitations = new InvitationService(ds, access, mailer, config, log);
  const inferenceLogs = new InferenceLogs(ds, access, log, config.inferenceLogFlushMs, (m) => serving.inputColumns(m));
  const deployments = new DeploymentService(ds, access, serving, datasetVersions);
  const privacyPolicies = new PrivacyPolicyService(ds, access);
  const privacySessions = new PrivacySessionService(ds, access, jobs);
  const activity = new AccountActivity(ds, log, config.accountActivityRetentionDays);
  // Built first: it registers the configured defaults that readSettings(manager) falls back on for this data source.
  const settings = new InstanceSettingsService(ds, config);
  const superusers = new Superusers(ds, activity, config.admin.bootstrapEmail);
  const accounts = new Accounts(ds, config, mailer, store, log, activity, superusers);
  const services = {
    access,
    /** The audit log's queries and request-level entries (entity entries: services/audit/subscriber.ts). */
    audit: new AuditLog(ds, access),
    jobs,
    jobAdmission: new JobAdmission(ds, deps.temporal, config, log),
    authentication: new Authentication(ds),
    activity,
    /** The instance settings of the admin area (services/admin/settings.ts). */
    settings,
    superusers,
    accounts,
    /** The admin area's users, every API key, security events and service logs (services/admin/). */
    admin: { users: new AdminUsers(ds, activity, accounts), apiKeys: new AdminApiKeys(ds, activity), securityEvents: new SecurityEvents(ds), logs: new ServiceLogs(ds) },
    apiKeys: new ApiKeyService(ds, activity),
    /** Billing: metering, plan, subscription, checkout and portal sessions, the provider's webhooks (services/billing/). */
    billing: createBilling(ds, config, log),
    plans: new Plans(ds, config),
    /** Plans for the admin area: define, assign to users and teams (services/plan-admin.ts). */
    planAdmin: new PlanAdmin(ds, config),
    invitations,
    projects: new ProjectService(ds, store, access, config),
    /** Teams and their members (services/teams.ts); teams' grants in projects and the members list (services/project-teams.ts). */
    teams: new TeamService(ds),
    projectTeams: new ProjectTeamService(ds, access),
    datasetVersions,
    datasets: new DatasetService(ds, store, access, datasetVersions, jobs, config, log),
    experiments,
    serving,
    models: new ModelService(ds, store, access, serving, experiments, config),
    artifacts: new ArtifactService(ds, store, access),
    artifactSweep: new ArtifactSweep(ds, store, log, config.artifactSweep.graceSecs),
    deployments,
    /** The model registry (registered models, versions, aliases, transition requests, events): services/registry/. */
    registry: new RegistryService({ ds, access, temporal: deps.temporal, config, log, stages: () => deployments.stages }),
    /** Rollout strategies (canary, blue-green, shadow): services/rollouts.ts. */
    rollouts: new RolloutService(ds, access, deps.temporal, config, deployments, inferenceLogs, log),
    inferenceLogs,
    /** A/B tests between deployments of a project: services/ab-tests.ts. */
    abTests: new AbTestService(ds, access, deployments),
    drift: new DriftService(ds, access, jobs, inferenceLogs),
    feedback: new FeedbackService(ds, access, inferenceLogs),
    alertChannels: new AlertChannelService(ds, access, mailer, { ...config.alertChannels, appBaseUrl: config.appBaseUrl }),
    alertRules: new AlertRuleService(ds, access, (projectId) => syncAlertSchedule({ ds, temporal: deps.temporal, config }, projectId), { metrics: deps.ruleMetrics, serving, datasetVersions }),
    driftSchedules: new DriftScheduleService(ds, access, { ds, temporal: deps.temporal, config }),
    /** Alert, drift and retraining schedules made to agree with their rows (run with the job reconciler). */
    reconcileSchedules: async () => {
      const [alerts, drift, retraining, retention] = [
        await reconcileAlertSchedules({ ds, temporal: deps.temporal, config }),
        await reconcileDriftSchedules({ ds, temporal: deps.temporal, config }),
        await reconcileRetrainingSchedules({ ds, temporal: deps.temporal, config }),
        await reconcileRetentionSchedule({ ds, temporal: deps.temporal, config }),
      ];
      return { created: alerts.created + drift.created + retraining.created + retention.created, deleted: alerts.deleted + drift.deleted + retraining.deleted + retention.deleted };
    },
    /** Instance-wide retention policies, their dry run and their runs (services/retention/). */
    retention: new RetentionService(ds, jobs, { ds, temporal: deps.temporal, config }),
    /** Single sign-on providers and the sign-in flow (services/sso/). */
    ...createSso({ ds, config, log, activity }, (): Accounts => services.accounts),
    alerts: new AlertService(ds, access),
    alertSuppressions: new SuppressionService(ds, access),
    /** The throttled mailer, for alert deliveries made outside a request (activities). */
    mailer,
    studio: new StudioService(ds, access, serving, deployments, config.studio),
    reports: new ReportService(ds, access, jobs, store),
    privacyPolicies,
    anonymizeStream: new AnonymizeStream(ds, access, privacyPolicies),
    privacySessions,
    privacyReports: new PrivacySessionReports(ds, store, privacySessions, privacyPolicies, config),
    synthgen: new SynthgenService(ds, access, jobs, store, config, log),
    /** The builder's sessions, steps and runs (services/builder/). */
    builder: createBuilder({ ds, access, jobs, store, datasetVersions, config }),
    /** Retraining policies, jobs and their outcomes (services/retraining/), on the registry and rollouts above. */
    ...createRetraining({ ds, access, jobs, datasetVersions, temporal: deps.temporal, config, log }, (): RetrainingPorts => services),
  };
  return services;
}

export * from './errors';
