import { useEffect, useRef } from 'preact/hooks';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip, type ChartConfiguration } from 'chart.js';

// Only the parts the pages draw: bars (histograms, importance, contributions), lines (ROC) and scatter (Pareto).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, ScatterController, Legend, Tooltip);

/**
 * A Chart.js chart on a canvas. The canvas is named by `label` and the numbers are also given as text in
 * `summary` (canvas pixels say nothing to a screen reader).
 */
export function ChartView({ config, label, summary, height = 240 }: { config: ChartConfiguration; label: string; summary?: string; height?: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const json = JSON.stringify(config);
  useEffect(() => {
    if (!ref.current) return;
    const chart = new Chart(ref.current, { ...config, options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options } });
    return () => chart.destroy();
    // The config is compared by value: a new object with the same data draws nothing new.
  }, [json]);
  return (
    <figure class="chart">
      <div class="chart-box" style={{ height: `${height}px` }}>
        <canvas ref={ref} role="img" aria-label={label} />
      </div>
      <figcaption>{summary ?? label}</figcaption>
    </figure>
  );
}

/** A horizontal bar chart of named values (importance, contributions: negative values in another colour). */
export function BarsChart({ items, label, height }: { items: { name: string; value: number }[]; label: string; height?: number }) {
  const config: ChartConfiguration = {
    type: 'bar',
    data: {
      labels: items.map((i) => i.name),
      datasets: [{ label, data: items.map((i) => i.value), backgroundColor: items.map((i) => (i.value < 0 ? '#c2410c' : '#1d4ed8')) }],
    },
    options: { indexAxis: 'y', plugins: { legend: { display: false } } },
  };
  const summary = `${label}: ${items
    .slice(0, 5)
    .map((i) => `${i.name} ${Number(i.value.toPrecision(3))}`)
    .join(', ')}${items.length > 5 ? ', …' : ''}`;
  return <ChartView config={config} label={label} summary={summary} height={height ?? Math.max(160, 24 * items.length + 40)} />;
}
