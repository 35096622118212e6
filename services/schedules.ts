import { type Client, ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleOptions } from '@temporalio/client';

/**
 * Temporal Schedules the service keeps in step with its rows (a project's alert evaluation, a deployment's drift
 * runs): one schedule per row that wants one, under an id prefix of its kind, none for a row that does not.
 */

/** Creates the schedule, or updates it to `options` (unpaused) when it exists; with `options` null, deletes it. */
export async function syncSchedule(client: Client, scheduleId: string, options: Omit<ScheduleOptions, 'scheduleId'> | null): Promise<void> {
  const handle = client.schedule.getHandle(scheduleId);
  if (!options) {
    await handle.delete().catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    });
    return;
  }
  try {
    await client.schedule.create({ scheduleId, ...options });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await handle.update((previous) => ({ ...previous, ...options, state: { ...previous.state, paused: false } }));
  }
}

/**
 * Makes the schedules under `prefix` agree with the rows that want one (`wanted`: the ids after the prefix), as the
 * job reconciler makes jobs agree with Temporal: `sync(id)` for each one missing (a dev server restarted without its
 * state, a start that failed) and each one no row wants any more (its rows deleted by a cascade that never called it).
 */
export async function reconcileSchedules(client: Client, prefix: string, wanted: Set<string>, sync: (id: string) => Promise<void>): Promise<{ created: number; deleted: number }> {
  const existing = new Set<string>();
  for await (const s of client.schedule.list()) if (s.scheduleId.startsWith(prefix)) existing.add(s.scheduleId.slice(prefix.length));
  let created = 0;
  let deleted = 0;
  for (const id of wanted) {
    if (existing.has(id)) continue;
    await sync(id);
    created++;
  }
  for (const id of existing) {
    if (wanted.has(id)) continue;
    await sync(id);
    deleted++;
  }
  return { created, deleted };
}
