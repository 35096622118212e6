import { z } from 'zod';
import { DRIFT_SCHEDULE_MINUTES } from '../../services/drift-schedule';
import { uuidParam } from '../validation';

export const driftScheduleParams = z.object({ deployment_id: uuidParam });

/** `{interval_minutes}` to run drift on a schedule, `{drift_schedule: null}`-style removal is the DELETE. */
export const driftScheduleBody = z.strictObject({
  interval_minutes: z.int().min(DRIFT_SCHEDULE_MINUTES.min).max(DRIFT_SCHEDULE_MINUTES.max),
});

export const driftScheduleAnswer = z.object({
  deployment_id: z.string(),
  drift_schedule: z.object({ interval_minutes: z.int() }).nullable(),
});
