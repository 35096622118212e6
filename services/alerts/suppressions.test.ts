import type { AlertSuppression, SuppressionRecurrence } from '../../entities';
import { findSilence, inWeeklyWindow, isValidTimeZone, suppressionState, type SilenceTarget } from './suppressions';

const at = (iso: string) => new Date(iso);

function suppression(over: Partial<AlertSuppression> = {}): AlertSuppression {
  return {
    id: 's1',
    projectId: 'p1',
    comment: '',
    matchers: { metric: 'error_rate' },
    startsAt: at('2026-01-01T00:00:00Z'),
    endsAt: at('2026-02-01T00:00:00Z'),
    recurrence: null,
    ...over,
  } as AlertSuppression;
}

const target: SilenceTarget = { rule_id: 'r1', deployment_id: 'd1', metric: 'error_rate', severity: 'warning', labels: { team: 'ml', env: 'prod' } };

describe('suppressionState', () => {
  it('is pending before starts_at, active until ends_at, expired from ends_at on', () => {
    const s = suppression();
    expect(suppressionState(s, at('2025-12-31T23:59:59Z'))).toBe('pending');
    expect(suppressionState(s, at('2026-01-01T00:00:00Z'))).toBe('active');
    expect(suppressionState(s, at('2026-01-31T23:59:59Z'))).toBe('active');
    expect(suppressionState(s, at('2026-02-01T00:00:00Z'))).toBe('expired');
    expect(suppressionState(suppression({ endsAt: null }), at('2030-01-01T00:00:00Z'))).toBe('active');
  });

  it('with a recurrence, is active only inside the weekly window (pending between windows)', () => {
    const workHours: SuppressionRecurrence = { days_of_week: [1, 2, 3, 4, 5], start_time: '09:00', end_time: '17:00', timezone: 'Europe/Paris' };
    const s = suppression({ recurrence: workHours });
    expect(suppressionState(s, at('2026-01-05T08:30:00Z'))).toBe('active'); // Monday 09:30 in Paris (UTC+1)
    expect(suppressionState(s, at('2026-01-05T16:30:00Z'))).toBe('pending'); // Monday 17:30
    expect(suppressionState(s, at('2026-01-04T10:00:00Z'))).toBe('pending'); // Sunday
    expect(suppressionState(s, at('2026-03-01T10:00:00Z'))).toBe('expired');
  });
});

describe('inWeeklyWindow', () => {
  const overnight: SuppressionRecurrence = { days_of_week: [5], start_time: '22:00', end_time: '06:00', timezone: 'America/New_York' };

  it('runs through midnight into the next day when the end is before the start', () => {
    expect(inWeeklyWindow(overnight, at('2026-01-10T04:00:00Z'))).toBe(true); // Friday 23:00 EST
    expect(inWeeklyWindow(overnight, at('2026-01-10T10:00:00Z'))).toBe(true); // Saturday 05:00
    expect(inWeeklyWindow(overnight, at('2026-01-10T12:00:00Z'))).toBe(false); // Saturday 07:00
    expect(inWeeklyWindow(overnight, at('2026-01-10T02:00:00Z'))).toBe(false); // Friday 21:00
    expect(inWeeklyWindow(overnight, at('2026-01-11T04:00:00Z'))).toBe(false); // Saturday 23:00: Saturday is not a start day
  });

  it('equal start and end: a whole day from the start', () => {
    const day: SuppressionRecurrence = { days_of_week: [0], start_time: '00:00', end_time: '00:00', timezone: 'UTC' };
    expect(inWeeklyWindow(day, at('2026-01-04T00:00:00Z'))).toBe(true);
    expect(inWeeklyWindow(day, at('2026-01-04T23:59:00Z'))).toBe(true);
    expect(inWeeklyWindow(day, at('2026-01-05T00:00:00Z'))).toBe(false);
  });

  it('keeps local hours across a DST change', () => {
    const morning: SuppressionRecurrence = { days_of_week: [0, 1, 2, 3, 4, 5, 6], start_time: '09:00', end_time: '10:00', timezone: 'Europe/Paris' };
    expect(inWeeklyWindow(morning, at('2026-03-28T08:30:00Z'))).toBe(true); // 09:30 CET (UTC+1)
    expect(inWeeklyWindow(morning, at('2026-03-30T07:30:00Z'))).toBe(true); // 09:30 CEST (UTC+2)
    expect(inWeeklyWindow(morning, at('2026-03-30T08:30:00Z'))).toBe(false); // 10:30 CEST
    // The hour New York skips on 2026-03-08 (02:00 → 03:00): a window inside it is empty that day.
    const skipped: SuppressionRecurrence = { days_of_week: [0], start_time: '02:00', end_time: '03:00', timezone: 'America/New_York' };
    expect(inWeeklyWindow(skipped, at('2026-03-08T06:59:00Z'))).toBe(false); // 01:59 EST
    expect(inWeeklyWindow(skipped, at('2026-03-08T07:00:00Z'))).toBe(false); // 03:00 EDT
  });
});

describe('time zones', () => {
  it('accepts IANA names and refuses others', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('findSilence', () => {
  const now = at('2026-01-15T12:00:00Z');

  it('finds the first active suppression whose every matcher matches', () => {
    const other = suppression({ id: 'other', matchers: { metric: 'latency_p99' } });
    const labelled = suppression({ id: 'labelled', matchers: { labels: { team: 'ml' }, severity: 'warning' } });
    expect(findSilence([other, labelled], target, now)?.id).toBe('labelled');
    expect(findSilence([suppression({ matchers: { labels: { team: 'ops' } } })], target, now)).toBeUndefined();
    expect(findSilence([suppression({ matchers: { labels: { missing: 'x' } } })], target, now)).toBeUndefined();
    expect(findSilence([suppression({ matchers: { rule_id: 'r1', deployment_id: 'd2' } })], target, now)).toBeUndefined();
    expect(findSilence([suppression({ matchers: { deployment_id: 'd1' } })], { ...target, deployment_id: null }, now)).toBeUndefined();
  });

  it('skips pending and expired suppressions', () => {
    expect(findSilence([suppression({ startsAt: at('2026-01-20T00:00:00Z') })], target, now)).toBeUndefined();
    expect(findSilence([suppression({ endsAt: at('2026-01-10T00:00:00Z') })], target, now)).toBeUndefined();
    expect(findSilence([suppression()], target, now)?.id).toBe('s1');
  });

  it('does not take inherited keys for labels', () => {
    expect(findSilence([suppression({ matchers: { labels: { constructor: 'x' } } })], target, now)).toBeUndefined();
  });
});
