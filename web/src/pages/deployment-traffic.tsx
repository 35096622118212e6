import { useState } from 'preact/hooks';
import { get, qs } from '../api';
import { ChartView } from '../chart';
import { ErrorBox, fmtNum, Loading, Section, Select, useAsync } from '../ui';

/** `GET …/traffic`: one entry per hour that had requests. */
interface Traffic {
  since: string;
  until: string;
  hours: { hour: string; requests: number; errors: number; latency_ms: { p50: number | null; p95: number | null; p99: number | null } }[];
}

type Hour = Traffic['hours'][number];

const HOUR_MS = 3600_000;
const WINDOWS: [string, string][] = [
  ['24', 'Last 24 hours'],
  ['168', 'Last 7 days'],
];

/**
 * Every hour of the window, with the API's figures where it had requests and zeros where it had none (the API
 * leaves quiet hours out; a chart without them would draw two busy hours days apart side by side).
 */
export function everyHour(t: Traffic): Hour[] {
  const byHour = new Map(t.hours.map((h) => [new Date(h.hour).getTime(), h]));
  const out: Hour[] = [];
  const start = Math.floor(new Date(t.since).getTime() / HOUR_MS) * HOUR_MS;
  for (let at = start; at < new Date(t.until).getTime(); at += HOUR_MS) {
    out.push(byHour.get(at) ?? { hour: new Date(at).toISOString(), requests: 0, errors: 0, latency_ms: { p50: null, p95: null, p99: null } });
  }
  return out;
}

const hourLabel = (iso: string, days: boolean) => {
  const d = new Date(iso);
  return days ? d.toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
};

/** Requests, errors and latency per hour of a deployment, as two charts with their figures in words. */
export function TrafficCharts({ deploymentId }: { deploymentId: string }) {
  const [hours, setHours] = useState('24');
  const traffic = useAsync(() => {
    const until = new Date();
    const since = new Date(until.getTime() - Number(hours) * HOUR_MS);
    return get<Traffic>(`/api/mlops/deployments/${deploymentId}/traffic${qs({ since: since.toISOString(), until: until.toISOString() })}`);
  }, [deploymentId, hours]);
  const t = traffic.data;
  const rows = t ? everyHour(t) : [];
  const labels = rows.map((h) => hourLabel(h.hour, hours !== '24'));
  const requests = rows.reduce((n, h) => n + h.requests, 0);
  const errors = rows.reduce((n, h) => n + h.errors, 0);
  const busiest = rows.reduce<Hour | null>((b, h) => (h.requests > (b?.requests ?? 0) ? h : b), null);
  const p95s = rows.map((h) => h.latency_ms.p95).filter((v): v is number => typeof v === 'number');
  return (
    <Section
      title="Traffic per hour"
      actions={
        <button type="button" class="secondary small" onClick={traffic.reload}>
          Refresh
        </button>
      }
    >
      <div class="row filters">
        <Select label="Window" value={hours} options={WINDOWS} onChange={(e) => setHours(e.currentTarget.value)} />
      </div>
      <ErrorBox error={traffic.error} />
      {!t ? (
        !traffic.error && <Loading />
      ) : requests === 0 ? (
        <p class="muted">No request in this window.</p>
      ) : (
        <>
          <ChartView
            label="Requests and errors per hour"
            summary={`${requests.toLocaleString()} requests, ${errors.toLocaleString()} refused or failed (${fmtNum((100 * errors) / requests, 3)}%)${busiest ? `; busiest hour ${hourLabel(busiest.hour, true)} with ${busiest.requests.toLocaleString()}` : ''}.`}
            config={{
              type: 'bar',
              data: {
                labels,
                datasets: [
                  { label: 'Requests', data: rows.map((h) => h.requests), backgroundColor: '#1d4ed8' },
                  { label: 'Errors (status 400 and above)', data: rows.map((h) => h.errors), backgroundColor: '#b91c1c' },
                ],
              },
              options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
            }}
          />
          <ChartView
            label="Latency per hour (ms)"
            summary={p95s.length ? `p95 latency per hour from ${fmtNum(Math.min(...p95s), 3)} to ${fmtNum(Math.max(...p95s), 3)} ms.` : 'No latency recorded.'}
            config={{
              type: 'line',
              data: {
                labels,
                datasets: [
                  { label: 'p50', data: rows.map((h) => h.latency_ms.p50), borderColor: '#1d4ed8', backgroundColor: '#1d4ed8', spanGaps: false },
                  { label: 'p95', data: rows.map((h) => h.latency_ms.p95), borderColor: '#c2410c', backgroundColor: '#c2410c', spanGaps: false },
                  { label: 'p99', data: rows.map((h) => h.latency_ms.p99), borderColor: '#6b21a8', backgroundColor: '#6b21a8', spanGaps: false },
                ],
              },
              options: { scales: { y: { beginAtZero: true, title: { display: true, text: 'ms' } } } },
            }}
          />
        </>
      )}
    </Section>
  );
}
