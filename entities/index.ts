import { AccountEvent } from './account-event.entity';
import { AuditEntry } from './audit-entry.entity';
import { AuditLog1732470000000 } from './migrations/1732470000000-audit-log';
import { Alert } from './alert.entity';
import { AlertChannel } from './alert-channel.entity';
import { AlertDelivery } from './alert-delivery.entity';
import { AlertEvent } from './alert-event.entity';
import { AlertNotification } from './alert-notification.entity';
import { AlertRule } from './alert-rule.entity';
import { AlertSuppression } from './alert-suppression.entity';
import { ApiKey } from './api-key.entity';
import { Artifact } from './artifact.entity';
import { AuthSession } from './auth-session.entity';
import { Dataset } from './dataset.entity';
import { Deployment } from './deployment.entity';
import { DeploymentTransition } from './deployment-transition.entity';
import { DatasetVersion } from './dataset-version.entity';
import { DriftResult } from './drift-result.entity';
import { EmailToken } from './email-token.entity';
import { Experiment } from './experiment.entity';
import { ExperimentLog } from './experiment-log.entity';
import { InferenceFeedback } from './inference-feedback.entity';
import { InferenceLog } from './inference-log.entity';
import { Job } from './job.entity';
import { InitialSchema1732300000000 } from './migrations/1732300000000-initial-schema';
import { Datasets1732310000000 } from './migrations/1732310000000-datasets';
import { Experiments1732320000000 } from './migrations/1732320000000-experiments';
import { ProjectInvitations1732330000000 } from './migrations/1732330000000-project-invitations';
import { Deployments1732340000000 } from './migrations/1732340000000-deployments';
import { Drift1732350000000 } from './migrations/1732350000000-drift';
import { Studio1732360000000 } from './migrations/1732360000000-studio';
import { Reports1732370000000 } from './migrations/1732370000000-reports';
import { Privacy1732380000000 } from './migrations/1732380000000-privacy';
import { Synthgen1732390000000 } from './migrations/1732390000000-synthgen';
import { AccountActivity1732400000000 } from './migrations/1732400000000-account-activity';
import { InferenceLogWarnings1732410000000 } from './migrations/1732410000000-inference-log-warnings';
import { ReportOnceMailThrottle1732420000000 } from './migrations/1732420000000-report-once-mail-throttle';
import { JobAdmission1732430000000 } from './migrations/1732430000000-job-admission';
import { ArtifactStorageKey1732435000000 } from './migrations/1732435000000-artifact-storage-key';
import { Alerts1732440000000 } from './migrations/1732440000000-alerts';
import { InferenceLogTrafficIndex1732445000000 } from './migrations/1732445000000-inference-log-traffic-index';
import { Model } from './model.entity';
import { AbAssignment } from './ab-assignment.entity';
import { AbOutcome } from './ab-outcome.entity';
import { AbTest } from './ab-test.entity';
import { AbTests1732452000000 } from './migrations/1732452000000-ab-tests';
import { RetrainingJob } from './retraining-job.entity';
import { RetrainingPolicy } from './retraining-policy.entity';
import { RetrainingTrigger } from './retraining-trigger.entity';
import { Retraining1732453000000 } from './migrations/1732453000000-retraining';
import { ExperimentWarnings1732460000000 } from './migrations/1732460000000-experiment-warnings';
import { InferenceLogError1732461000000 } from './migrations/1732461000000-inference-log-error';
import { PrivacyFindingOverrides1732464000000 } from './migrations/1732464000000-privacy-finding-overrides';
import { Retention1732473000000 } from './migrations/1732473000000-retention';
import { RetentionPolicy } from './retention-policy.entity';
import { Rollout } from './rollout.entity';
import { Rollouts1732451000000 } from './migrations/1732451000000-rollouts';
import { RegisteredModel } from './registered-model.entity';
import { RegistryAlias } from './registry-alias.entity';
import { RegistryEvent } from './registry-event.entity';
import { RegistryTransition } from './registry-transition.entity';
import { RegistryVersion } from './registry-version.entity';
import { Registry1732450000000 } from './migrations/1732450000000-registry';
import { PrivacyPolicy } from './privacy-policy.entity';
import { PrivacyResult } from './privacy-result.entity';
import { PrivacyRule } from './privacy-rule.entity';
import { PrivacyProjectSecret } from './privacy-secret.entity';
import { PrivacySession } from './privacy-session.entity';
import { Project } from './project.entity';
import { ProjectInvitation } from './project-invitation.entity';
import { ProjectMember } from './project-member.entity';
import { ProjectTeam } from './project-team.entity';
import { Team } from './team.entity';
import { TeamMember } from './team-member.entity';
import { Plan } from './plan.entity';
import { Plans1732475000000 } from './migrations/1732475000000-plans';
import { Teams1732472000000 } from './migrations/1732472000000-teams';
import { ProjectQualityPolicy } from './quality-policy.entity';
import { RateLimitWindow } from './rate-limit-window.entity';
import { Report } from './report.entity';
import { StudioScenario } from './studio-scenario.entity';
import { StudioSession } from './studio-session.entity';
import { SynthgenJob } from './synthgen-job.entity';
import { SynthgenModel } from './synthgen-model.entity';
import { User } from './user.entity';
import { SsoLoginState } from './sso-login-state.entity';
import { SsoProvider } from './sso-provider.entity';
import { UserIdentity } from './user-identity.entity';
import { Sso1732474000000 } from './migrations/1732474000000-sso';
import { UsageEvent } from './usage-event.entity';
import { BillingAccount } from './billing-account.entity';
import { BillingEvent } from './billing-event.entity';
import { Billing1732476000000 } from './migrations/1732476000000-billing';
import { BuilderMessage } from './builder-message.entity';
import { BuilderSession } from './builder-session.entity';
import { BuilderStep } from './builder-step.entity';
import { Builder1732480000000 } from './migrations/1732480000000-builder';
import { InstanceSettings } from './instance-settings.entity';
import { ServiceLogEntry } from './service-log-entry.entity';
import { Admin1732471000000 } from './migrations/1732471000000-admin';

export * from './account-event.entity';
export * from './audit-entry.entity';
export * from './retention-policy.entity';
export * from './plan.entity';
export * from './instance-settings.entity';
export * from './service-log-entry.entity';
export * from './alert.entity';
export * from './alert-channel.entity';
export * from './alert-delivery.entity';
export * from './alert-event.entity';
export * from './alert-notification.entity';
export * from './alert-rule.entity';
export * from './alert-suppression.entity';
export * from './alert-values';
export * from './api-key.entity';
export * from './artifact.entity';
export * from './auth-session.entity';
export * from './dataset.entity';
export * from './deployment.entity';
export * from './drift-result.entity';
export * from './deployment-transition.entity';
export * from './dataset-version.entity';
export * from './email-token.entity';
export * from './experiment.entity';
export * from './report.entity';
export * from './experiment-log.entity';
export * from './inference-feedback.entity';
export * from './inference-log.entity';
export * from './job.entity';
export * from './job-tracked.entity';
export * from './model.entity';
export * from './ab-assignment.entity';
export * from './ab-outcome.entity';
export * from './ab-test.entity';
export * from './retraining-job.entity';
export * from './retraining-policy.entity';
export * from './retraining-trigger.entity';
export * from './retraining-values';
export * from './registered-model.entity';
export * from './registry-alias.entity';
export * from './registry-event.entity';
export * from './registry-transition.entity';
export * from './registry-values';
export * from './registry-version.entity';
export * from './privacy-policy.entity';
export * from './privacy-result.entity';
export * from './privacy-rule.entity';
export * from './privacy-secret.entity';
export * from './privacy-session.entity';
export * from './project.entity';
export * from './project-invitation.entity';
export * from './project-member.entity';
export * from './project-team.entity';
export * from './team.entity';
export * from './team-member.entity';
export * from './quality-policy.entity';
export * from './rate-limit-window.entity';
export * from './rollout.entity';
export * from './studio-scenario.entity';
export * from './studio-session.entity';
export * from './synthgen-job.entity';
export * from './synthgen-model.entity';
export * from './user.entity';
export * from './sso-login-state.entity';
export * from './sso-provider.entity';
export * from './user-identity.entity';
export * from './usage-event.entity';
export * from './billing-account.entity';
export * from './billing-event.entity';
export * from './builder-message.entity';
export * from './builder-session.entity';
export * from './builder-step.entity';

export const ENTITIES = [
  User,
  InstanceSettings,
  ServiceLogEntry,
  AuthSession,
  ApiKey,
  EmailToken,
  Project,
  ProjectMember,
  Team,
  TeamMember,
  ProjectTeam,
  Plan,
  ProjectInvitation,
  Job,
  Artifact,
  RateLimitWindow,
  Dataset,
  DatasetVersion,
  ProjectQualityPolicy,
  Experiment,
  Model,
  ExperimentLog,
  Deployment,
  DeploymentTransition,
  InferenceLog,
  DriftResult,
  StudioSession,
  StudioScenario,
  Report,
  PrivacyPolicy,
  PrivacyRule,
  PrivacySession,
  PrivacyResult,
  PrivacyProjectSecret,
  SynthgenModel,
  SynthgenJob,
  AccountEvent,
  AuditEntry,
  AlertChannel,
  AlertDelivery,
  AlertRule,
  Alert,
  AlertEvent,
  AlertNotification,
  AlertSuppression,
  InferenceFeedback,
  AbTest,
  AbAssignment,
  AbOutcome,
  RegisteredModel,
  RegistryVersion,
  RegistryAlias,
  RegistryTransition,
  RegistryEvent,
  Rollout,
  RetrainingPolicy,
  RetrainingJob,
  RetrainingTrigger,
  RetentionPolicy,
  SsoProvider,
  UserIdentity,
  SsoLoginState,
  UsageEvent,
  BillingAccount,
  BillingEvent,
  BuilderSession,
  BuilderStep,
  BuilderMessage,
];
export const MIGRATIONS = [
  InitialSchema1732300000000,
  Datasets1732310000000,
  Experiments1732320000000,
  ProjectInvitations1732330000000,
  Deployments1732340000000,
  Drift1732350000000,
  Studio1732360000000,
  Reports1732370000000,
  Privacy1732380000000,
  Synthgen1732390000000,
  AccountActivity1732400000000,
  InferenceLogWarnings1732410000000,
  ReportOnceMailThrottle1732420000000,
  JobAdmission1732430000000,
  ArtifactStorageKey1732435000000,
  Alerts1732440000000,
  InferenceLogTrafficIndex1732445000000,
  Registry1732450000000,
  Rollouts1732451000000,
  AbTests1732452000000,
  Retraining1732453000000,
  ExperimentWarnings1732460000000,
  InferenceLogError1732461000000,
  PrivacyFindingOverrides1732464000000,
  AuditLog1732470000000,
  Admin1732471000000,
  Teams1732472000000,
  Retention1732473000000,
  Sso1732474000000,
  Plans1732475000000,
  Billing1732476000000,
  Builder1732480000000,
];
