import type { AlertSuppression, SuppressionMatchers, SuppressionRecurrence } from '../../entities';

/**
 * Silences, as pure functions of the time (the evaluator and the API share them): a suppression is `pending` before
 * `starts_at` (and, with a recurrence, between its weekly windows), `active` inside, `expired` from `ends_at` on.
 * Recurring windows are wall-clock times in an IANA zone (Alertmanager's `time_intervals` with `location`): read
 * through Intl, so a window keeps its local hours across DST changes (a window inside the hour skipped in spring is
 * empty that day; one inside the repeated autumn hour holds both times).
 */

export type SuppressionState = 'pending' | 'active' | 'expired';
export const SUPPRESSION_STATES = ['pending', 'active', 'expired'] as const;

/** What an alert is matched on. */
export interface SilenceTarget {
  rule_id: string;
  deployment_id: string | null;
  metric: string;
  severity: string;
  labels: Record<string, string>;
}

type Timed = Pick<AlertSuppression, 'startsAt' | 'endsAt' | 'recurrence'>;

export function suppressionState(s: Timed, now: Date): SuppressionState {
  if (s.endsAt && now.getTime() >= s.endsAt.getTime()) return 'expired';
  if (now.getTime() < s.startsAt.getTime()) return 'pending';
  if (s.recurrence && !inWeeklyWindow(s.recurrence, now)) return 'pending';
  return 'active';
}

/** The first active suppression whose matchers all match `target`, if any. */
export function findSilence<S extends Timed & Pick<AlertSuppression, 'matchers'>>(suppressions: S[], target: SilenceTarget, now: Date): S | undefined {
  return suppressions.find((s) => matches(s.matchers, target) && suppressionState(s, now) === 'active');
}

/** Every matcher given must match (labels: each given label equal); a suppression always has at least one. */
export function matches(m: SuppressionMatchers, t: SilenceTarget): boolean {
  if (m.rule_id !== undefined && m.rule_id !== t.rule_id) return false;
  if (m.deployment_id !== undefined && m.deployment_id !== t.deployment_id) return false;
  if (m.metric !== undefined && m.metric !== t.metric) return false;
  if (m.severity !== undefined && m.severity !== t.severity) return false;
  for (const [k, v] of Object.entries(m.labels ?? {})) if (!Object.prototype.hasOwnProperty.call(t.labels, k) || t.labels[k] !== v) return false;
  return true;
}

/** Whether Intl knows `zone` as an IANA time zone. */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 100) return false;
  try {
    localTime(zone, new Date(0));
    return true;
  } catch {
    return false;
  }
}

/** "HH:MM" (00:00-23:59) → minutes after midnight, or null. */
export function clockMinutes(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * Whether `now` falls in the weekly window: on one of `days_of_week` (0 = Sunday, the day the window starts) from
 * `start_time` to `end_time` local time. An end at or before the start runs through midnight into the next day
 * (equal times: a whole day from the start).
 */
export function inWeeklyWindow(r: SuppressionRecurrence, now: Date): boolean {
  const start = clockMinutes(r.start_time);
  const end = clockMinutes(r.end_time);
  if (start === null || end === null) return false;
  const { weekday, minutes } = localTime(r.timezone, now);
  const days = new Set(r.days_of_week);
  if (start < end) return days.has(weekday) && minutes >= start && minutes < end;
  return (days.has(weekday) && minutes >= start) || (days.has((weekday + 6) % 7) && minutes < end);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

/** The weekday (0 = Sunday) and minutes after midnight of `now` on the wall clock of `zone`. */
function localTime(zone: string, now: Date): { weekday: number; minutes: number } {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    if (formats.size > 500) formats.clear();
    formats.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  return { weekday: WEEKDAYS.indexOf(parts.weekday), minutes: (Number(parts.hour) % 24) * 60 + Number(parts.minute) };
}
