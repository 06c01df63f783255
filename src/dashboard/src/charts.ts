// The chart library, loaded only by the pages with charts (a separate chunk with its stylesheet).
import uPlot from 'uplot';
import { formatCount, formatDay, formatShortDay } from './i18n/index.js';

let stylesheet: HTMLLinkElement | null = null;
function loadStylesheet(): void {
  if (stylesheet) return;
  stylesheet = document.createElement('link');
  stylesheet.rel = 'stylesheet';
  stylesheet.href = '/dashboard/assets/uPlot.min.css';
  document.head.append(stylesheet);
}

export interface Series {
  label: string;
  values: number[];
  color: string;
  /** Right-hand axis (e.g. money next to counts). */
  right?: boolean;
  format?: (value: number) => string;
}

const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * A time-series chart over days, sized to its container and resized with it; returns a clean-up. Days, counts
 * and each series' values are written in the dashboard's language (uPlot's own formats are English).
 */
export function drawDaily(container: HTMLElement, days: string[], series: Series[]): () => void {
  loadStylesheet();
  const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const right = series.find((s) => s.right);
  const left = series.find((s) => !s.right);
  const hasRight = right !== undefined;
  const width = () => Math.max(280, container.clientWidth);
  const plot = new uPlot(
    {
      width: width(),
      height: 220,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { values: (_u, splits) => splits.map((seconds) => formatShortDay(dayOf(seconds))) },
        { size: 56, values: (_u, splits) => splits.map((value) => (left?.format ?? formatCount)(value)) },
        ...(hasRight
          ? [
              {
                scale: 'right',
                side: 1,
                size: 96,
                grid: { show: false },
                values: (_u, splits) => splits.map((value) => (right?.format ?? formatCount)(value)),
              } as uPlot.Axis,
            ]
          : []),
      ],
      series: [
        {
          value: (_u: uPlot, seconds: number | null) => (seconds === null ? '—' : formatDay(dayOf(seconds))),
        },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          scale: s.right ? 'right' : 'y',
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : (s.format ?? formatCount)(v)),
        })),
      ],
    },
    [xs, ...series.map((s) => s.values)],
    container,
  );
  const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
  observer.observe(container);
  return () => {
    observer.disconnect();
    plot.destroy();
  };
}
