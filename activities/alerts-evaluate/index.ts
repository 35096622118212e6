import { Context } from '@temporalio/activity';
import { createLogger } from '../../platform/logger';
import type { ActivityDeps } from '../deps';
import { deliverNotification, type DeliveryOutcome, giveUp, stalePending } from './deliver';
import { evaluateProject, type EvaluationResult } from './evaluate';

export type { DeliveryOutcome, EvaluationResult };

export interface AlertsEvaluateActivities {
  /** Measures the project's enabled rules at `now` (ISO) and moves their alerts; the notifications owed. */
  evaluateAlerts(projectId: string, now: string): Promise<EvaluationResult>;
  /** Notifications of the project still pending from before `before` (ISO): owed, never handed to a delivery. */
  pendingNotifications(projectId: string, before: string): Promise<string[]>;
  /** One delivery attempt (throws on failure, for Temporal to retry). */
  deliverNotification(notificationId: string): Promise<DeliveryOutcome>;
  /** Gives a notification up once its retries are spent. */
  abandonNotification(notificationId: string, error: string): Promise<void>;
}

/**
 * Alert evaluation's worker side, run by `alertsEvaluateWorkflow` on the io queue every ALERT_EVAL_INTERVAL_SECS (a
 * Temporal Schedule per project, services/alerts/schedule.ts). It is no job kind: a cycle a minute per project would
 * be a jobs row a minute, so the folder says it is a scheduled activity set (activities/index.ts).
 */
export function createAlertsEvaluateActivities({ services, dataSource, config }: ActivityDeps): AlertsEvaluateActivities {
  const { serving, datasetVersions, mailer } = services;
  const log = createLogger(config.logLevel, 'alerts');
  const delivery = { ds: dataSource, mailer, allowPrivateTargets: config.alertChannels.allowPrivateTargets, failingAfter: config.alertChannels.failingAfter };
  return {
    evaluateAlerts: async (projectId, now) => {
      const result = await evaluateProject({ ds: dataSource, serving, datasetVersions, log, appBaseUrl: config.appBaseUrl }, projectId, new Date(now));
      // Retraining policies listing a rule whose accuracy_degradation alert began firing in this cycle.
      await services.retraining.afterAlertEvaluation(projectId, new Date(now)).catch((err: unknown) => log.warn({ err, projectId }, 'retraining alert triggers failed'));
      return result;
    },
    pendingNotifications: (projectId, before) => stalePending(dataSource, projectId, new Date(before)),
    deliverNotification: (id) => deliverNotification(delivery, id, Context.current().info.attempt),
    abandonNotification: (id, error) => giveUp(dataSource, id, error),
  };
}

/** This folder's activities, as activities/index.ts registers every folder's. */
export const activities = createAlertsEvaluateActivities;

/** A scheduled activity set, not a job kind's (see activities/index.ts). */
export const scheduled = true;
