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
import { FeedbackService } from './alerts/feedback';
import { AlertService } from './alerts/alerts';
import { AlertChannelService } from './alerts/channels';
import type { RuleMetrics } from './alerts/rule-test';
import { AlertRuleService } from './alerts/rules';
import { reconcileAlertSchedules, syncAlertSchedule } from './alerts/schedule';
import { DriftScheduleService, reconcileDriftSchedules } from './drift-schedule';
import { SuppressionService } from './alerts/suppression-service';
import { Accounts } from './accounts';
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
import { ProjectService } from './projects';
import { RegistryService } from './registry';
import { ReportService } from './reports/service';
import { createRetraining, reconcileRetrainingSchedules, type RetrainingPorts } from './retraining';
import { RolloutService } from './rollouts';
import { StudioService } from './studio';
import { SynthgenService } from './synthgen/service';

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
  const services = {
    access,
    jobs,
    jobAdmission: new JobAdmission(ds, deps.temporal, config, log),
    authentication: new Authentication(ds),
    activity,
    accounts: new Accounts(ds, config, mailer, store, log, activity),
    apiKeys: new ApiKeyService(ds, activity),
    plans: new Plans(ds, config),
    invitations,
    projects: new ProjectService(ds, store, access, config),
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
      const [alerts, drift, retraining] = [
        await reconcileAlertSchedules({ ds, temporal: deps.temporal, config }),
        await reconcileDriftSchedules({ ds, temporal: deps.temporal, config }),
        await reconcileRetrainingSchedules({ ds, temporal: deps.temporal, config }),
      ];
      return { created: alerts.created + drift.created + retraining.created, deleted: alerts.deleted + drift.deleted + retraining.deleted };
    },
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
    /** Retraining policies, jobs and their outcomes (services/retraining/), on the registry and rollouts above. */
    ...createRetraining({ ds, access, jobs, datasetVersions, temporal: deps.temporal, config, log }, (): RetrainingPorts => services),
  };
  return services;
}

export * from './errors';
