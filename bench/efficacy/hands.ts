import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Checkout, entries } from './buyers.js';
import type { Layout } from './lab.js';

const run = promisify(execFile);

/** How a buyer moves through the form: pointer onto each field and Pay, or one click then Tab … Enter. */
export type InputStyle = 'pointer' | 'keyboard';

// Human timing, drawn at random around what keystroke studies report: a log-normal key hold of ~85 ms
// (40–140) and a log-normal interval from one key down to the next of ~190 ms (80–350).
const gaussian = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
const logNormal = (median: number, spread: number, min: number, max: number) =>
  Math.min(max, Math.max(min, median * Math.exp(spread * gaussian())));
const between = (min: number, max: number) => min + Math.random() * (max - min);
const seconds = (ms: number) => (ms / 1000).toFixed(3);

const KEYSYMS: Record<string, string> = {
  ' ': 'space',
  '@': 'at',
  '.': 'period',
  '-': 'minus',
  _: 'underscore',
};
const keysym = (char: string) => KEYSYMS[char] ?? char;
// A neighbouring key on a QWERTY row, for a typo.
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];
const neighbour = (char: string) => {
  const row = ROWS.find((keys) => keys.includes(char.toLowerCase()));
  if (!row) return null;
  const at = row.indexOf(char.toLowerCase());
  return row[at + (at > 0 && Math.random() < 0.5 ? -1 : 1)] ?? row[at - 1]!;
};

/**
 * xdotool spends a few tens of milliseconds in each event command (its round trips to the X server, more on a
 * busy machine): measured once, it is taken off the sleeps that follow, so the rhythm the page sees is the one
 * drawn. `wait(ms)` is a sleep command worth `ms` once one event's cost is paid.
 */
type Wait = (ms: number) => string[];

/** One key press as xdotool commands: down, held, up, then what is left of the interval to the next key. */
const press = (key: string, wait: Wait) => {
  const hold = logNormal(85, 0.3, 40, 140);
  const interval = Math.max(hold + 20, logNormal(190, 0.35, 80, 350));
  return ['keydown', key, ...wait(hold), 'keyup', key, ...wait(interval - hold)];
};

/** Typing `text` with a human rhythm; now and then a wrong neighbouring key, a pause, BackSpace. */
function typing(text: string, wait: Wait): string[] {
  return [...text].flatMap((char) => {
    const typo = Math.random() < 0.03 ? neighbour(char) : null;
    return [
      ...(typo ? [...press(typo, wait), ...wait(between(150, 400)), ...press('BackSpace', wait)] : []),
      ...press(keysym(char), wait),
    ];
  });
}

interface Point {
  x: number;
  y: number;
}

/**
 * A hand's path from `from` to `to`: a cubic Bézier bent to one side, walked in many small steps with a
 * minimum-jerk speed profile (slow, fast, slow) and some jitter, as long as a reach of that length takes.
 */
function reach(from: Point, to: Point, wait: Wait): string[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const bend = between(-0.3, 0.3) * distance;
  const normal = { x: -(to.y - from.y) / (distance || 1), y: (to.x - from.x) / (distance || 1) };
  const control = (t: number, side: number) => ({
    x: from.x + (to.x - from.x) * t + normal.x * bend * side,
    y: from.y + (to.y - from.y) * t + normal.y * bend * side,
  });
  const [c1, c2] = [control(between(0.2, 0.4), 1), control(between(0.6, 0.8), between(0.3, 1))];
  const steps = Math.round(Math.min(40, Math.max(15, distance / 15)));
  const totalMs = between(250, 400) + distance * between(0.6, 1.0);
  const commands: string[] = [];
  for (let i = 1; i <= steps; i++) {
    const u = i / steps;
    const t = u * u * u * (10 - 15 * u + 6 * u * u);
    const m = 1 - t;
    const x = m ** 3 * from.x + 3 * m * m * t * c1.x + 3 * m * t * t * c2.x + t ** 3 * to.x;
    const y = m ** 3 * from.y + 3 * m * m * t * c1.y + 3 * m * t * t * c2.y + t ** 3 * to.y;
    commands.push('mousemove', String(Math.round(x)), String(Math.round(y)));
    commands.push(...wait((totalMs / steps) * between(0.6, 1.4)));
  }
  return commands;
}

/** A point inside a field (not dead centre: people aim roughly), in screen pixels. */
function target(layout: Layout, id: string): Point {
  const field = layout.fields[id];
  if (!field) throw new Error(`the page reported no #${id}`);
  // No window manager under the lab's Xvfb: no side borders, the browser's own toolbars sit above the viewport.
  const left = layout.screenX + (layout.outerWidth - layout.innerWidth) / 2;
  const top = layout.screenY + layout.outerHeight - layout.innerHeight;
  const scale = layout.devicePixelRatio || 1;
  return {
    x: Math.round((left + field.x + field.width * between(0.2, 0.7)) * scale),
    y: Math.round((top + field.y + field.height * between(0.35, 0.65)) * scale),
  };
}

/**
 * A buyer's keyboard and mouse on `display`: xdotool sends X input events as the devices do (XTEST), no
 * browser driver involved. `fill` fills the checkout of `layout` with `checkout` and presses Pay.
 */
export function hands(display: string) {
  const env = { ...process.env, DISPLAY: display };
  const xdotool = (args: string[]) => run('xdotool', args, { env, timeout: 120_000 });
  let pointer: Point | null = null;
  let eventCostMs: number | null = null;
  const wait: Wait = (ms) => {
    const left = ms - (eventCostMs ?? 0);
    return left > 0 ? ['sleep', seconds(left)] : [];
  };

  // Where the pointer is, and what one event command costs (ten moves onto the spot where it already is).
  const calibrate = async () => {
    const { stdout } = await xdotool(['getmouselocation', '--shell']);
    pointer = { x: Number(/X=(\d+)/.exec(stdout)?.[1]), y: Number(/Y=(\d+)/.exec(stdout)?.[1]) };
    const started = performance.now();
    await xdotool(
      Array.from({ length: 10 }, () => ['mousemove', String(pointer!.x), String(pointer!.y)]).flat(),
    );
    eventCostMs = (performance.now() - started) / 10;
  };

  const moveAndClick = async (to: Point) => {
    await xdotool([
      ...reach(pointer!, to, wait),
      ...wait(between(80, 250)),
      'mousedown',
      '1',
      ...wait(logNormal(90, 0.3, 50, 160)),
      'mouseup',
      '1',
    ]);
    pointer = to;
  };

  return {
    async fill(layout: Layout, checkout: Checkout, style: InputStyle = 'pointer') {
      if (eventCostMs === null) await calibrate();
      const fields = entries(checkout);
      for (const [index, [selector, text]] of fields.entries()) {
        if (style === 'pointer' || index === 0) await moveAndClick(target(layout, selector.slice(1)));
        else await xdotool(press('Tab', wait));
        await xdotool(['sleep', seconds(between(150, 400)), ...typing(text, wait)]);
        // A glance at the form, or the card, before the next field.
        await xdotool(['sleep', seconds(between(200, 800))]);
      }
      if (style === 'pointer') await moveAndClick(target(layout, 'pay'));
      else await xdotool(press('Return', wait));
    },
  };
}
