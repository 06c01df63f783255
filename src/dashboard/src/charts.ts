// The chart library, loaded only by the pages with charts (a separate chunk with its stylesheet).
import uPlot from 'uplot';

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

/** A time-series chart over days, sized to its container and resized with it; returns a clean-up. */
export function drawDaily(container: HTMLElement, days: string[], series: Series[]): () => void {
  loadStylesheet();
  const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const hasRight = series.some((s) => s.right);
  const width = () => Math.max(280, container.clientWidth);
  const plot = new uPlot(
    {
      width: width(),
      height: 220,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        {},
        { size: 56 },
        ...(hasRight ? [{ scale: 'right', side: 1, size: 72, grid: { show: false } } as uPlot.Axis] : []),
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          scale: s.right ? 'right' : 'y',
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : s.format ? s.format(v) : String(v)),
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
