import { timingStats } from './timing-stats.js';
import type { BehaviorReport } from './types.js';

/** An input with no keystroke this recent behind it was not typed (a key's input follows its keydown at once). */
const KEY_INPUT_WINDOW_MS = 50;
/** A longer gap between keystrokes is a pause (reading the card, switching fields), not rhythm. */
const MAX_INTERVAL_MS = 5000;
/** A hand moving a mouse sends a stream of moves; a driver's click sends one, or none. */
const TRAVEL_MOVES = 2;
/** Bounds: the report stays small whatever the page does. */
const MAX_SAMPLES = 200;
const MAX_FIELDS = 64;

type Counters = Omit<
  BehaviorReport,
  'elapsed_ms' | 'first_input_ms' | 'fields' | 'keyless_fields' | 'intervals' | 'dwell' | 'flight'
>;

/** What one text field saw; kept by element identity, never by name or value. */
interface FieldCounts {
  keys: number;
  keyless: number;
  /** Paste, drop, autofill: a person's way of filling without keys. */
  assisted: number;
}

const isTextField = (target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement =>
  target instanceof HTMLTextAreaElement ||
  (target instanceof HTMLInputElement &&
    !/^(button|checkbox|color|file|hidden|image|radio|range|reset|submit)$/.test(target.type));

function autofilled(field: Element): boolean {
  for (const selector of [':autofill', ':-webkit-autofill']) {
    try {
      if (field.matches(selector)) return true;
    } catch {
      // The engine does not know this spelling.
    }
  }
  return false;
}

function pushBounded(samples: number[], value: number) {
  samples.push(value);
  if (samples.length > MAX_SAMPLES) samples.shift();
}

/**
 * Listens passively (capture phase, on `document`) to how the page's text fields are filled and its pointer
 * used, until `signal` aborts; `read()` returns the aggregates so far. Keys are looked at only to tell Tab and a
 * soft keyboard's events apart: neither a key nor a value is kept.
 */
export function startBehavior(
  document: Document,
  signal: AbortSignal,
  now: () => number = () => performance.now(),
): () => BehaviorReport {
  const started = now();
  const fields = new WeakMap<EventTarget, FieldCounts>();
  const counted: FieldCounts[] = [];
  const intervals: number[] = [];
  const dwell: number[] = [];
  const flights: number[] = [];
  const held = new Map<string, number>();
  let lastRelease: number | undefined;
  let flightCount = 0;
  let firstInput: number | null = null;
  let lastKey = Number.NEGATIVE_INFINITY;
  let lastPaste = Number.NEGATIVE_INFINITY;
  let lastDrop = Number.NEGATIVE_INFINITY;
  let movesSincePress = 0;
  let lastMove: { x: number; y: number } | undefined;
  let intervalFrom: number | undefined;
  let intervalCount = 0;
  let dwellCount = 0;
  const report: Counters = {
    keys: 0,
    ime_keys: 0,
    inputs: 0,
    keyless_inputs: 0,
    pastes: 0,
    drops: 0,
    autofills: 0,
    mouse_clicks: 0,
    touch_clicks: 0,
    pen_clicks: 0,
    travelled_clicks: 0,
    mouse_moves: 0,
    path_px: 0,
    touches: 0,
    overlaps: 0,
    focus_changes: 0,
    tabs: 0,
    submits: 0,
  };

  const field = (target: EventTarget): FieldCounts | undefined => {
    let counts = fields.get(target);
    if (!counts && counted.length < MAX_FIELDS) {
      counts = { keys: 0, keyless: 0, assisted: 0 };
      fields.set(target, counts);
      counted.push(counts);
    }
    return counts;
  };
  const touched = (time: number) => {
    firstInput ??= time;
  };

  const handlers: { [K in keyof DocumentEventMap]?: (event: DocumentEventMap[K]) => void } = {
    keydown(event) {
      if (event.key === 'Tab') report.tabs++;
      if (event.repeat || !isTextField(event.target)) return;
      const time = event.timeStamp;
      touched(time);
      lastKey = time;
      field(event.target)!.keys++;
      // A soft keyboard or an IME sends its keydown and keyup back to back, with no key to name: no rhythm.
      if (event.isComposing || event.key === 'Unidentified' || event.keyCode === 229) {
        report.ime_keys++;
        return;
      }
      report.keys++;
      if (intervalFrom !== undefined && time - intervalFrom <= MAX_INTERVAL_MS) {
        intervalCount++;
        pushBounded(intervals, time - intervalFrom);
      }
      intervalFrom = time;
      // From the last release to this press, when no key is held: a driver's press-with-delay releases and
      // presses again at once, every time; a person's gaps vary, and their keys often overlap (rollover).
      if (held.size > 0) report.overlaps++;
      else if (lastRelease !== undefined && time - lastRelease <= MAX_INTERVAL_MS) {
        flightCount++;
        pushBounded(flights, time - lastRelease);
      }
      held.set(event.code, time);
    },
    keyup(event) {
      const down = held.get(event.code);
      if (down === undefined) return;
      held.delete(event.code);
      lastRelease = event.timeStamp;
      dwellCount++;
      pushBounded(dwell, event.timeStamp - down);
    },
    paste(event) {
      if (isTextField(event.target)) lastPaste = event.timeStamp;
    },
    drop(event) {
      if (isTextField(event.target)) lastDrop = event.timeStamp;
    },
    input(event) {
      const target = event.target;
      if (!isTextField(target)) return;
      const time = event.timeStamp;
      touched(time);
      report.inputs++;
      const counts = field(target);
      const type = (event as InputEvent).inputType ?? '';
      const recent = (at: number) => time - at <= KEY_INPUT_WINDOW_MS;
      if (type.startsWith('insertFromPaste') || recent(lastPaste)) report.pastes++;
      else if (type === 'insertFromDrop' || recent(lastDrop)) report.drops++;
      else if (type === 'insertReplacementText' || autofilled(target)) report.autofills++;
      else if (event.isTrusted && (recent(lastKey) || !/^(insertText)?$/.test(type))) return;
      else {
        // `insertText` or a bare `input` event (a script's) with no key behind it: a value set, not typed.
        report.keyless_inputs++;
        if (counts) counts.keyless++;
        return;
      }
      if (counts) counts.assisted++;
    },
    focusin() {
      report.focus_changes++;
    },
    pointermove(event) {
      if (event.pointerType !== 'mouse') return;
      report.mouse_moves++;
      movesSincePress++;
      if (lastMove) report.path_px += Math.hypot(event.clientX - lastMove.x, event.clientY - lastMove.y);
      lastMove = { x: event.clientX, y: event.clientY };
    },
    pointerdown(event) {
      if (event.pointerType === 'touch') report.touch_clicks++;
      else if (event.pointerType === 'pen') report.pen_clicks++;
      else {
        report.mouse_clicks++;
        if (movesSincePress >= TRAVEL_MOVES) report.travelled_clicks++;
      }
      movesSincePress = 0;
    },
    touchstart() {
      report.touches++;
    },
    submit() {
      report.submits++;
    },
  };

  const options = { capture: true, passive: true };
  if (!signal.aborted)
    for (const [type, handler] of Object.entries(handlers))
      document.addEventListener(type, handler as EventListener, options);
  signal.addEventListener(
    'abort',
    () => {
      for (const [type, handler] of Object.entries(handlers))
        document.removeEventListener(type, handler as EventListener, options);
    },
    { once: true },
  );

  return () => {
    return {
      elapsed_ms: Math.round(now() - started),
      first_input_ms: firstInput === null ? null : Math.max(0, Math.round(firstInput - started)),
      fields: counted.length,
      keyless_fields: counted.filter((f) => f.keyless > 0 && f.keys === 0 && f.assisted === 0).length,
      ...report,
      path_px: Math.round(report.path_px),
      intervals: timingStats(intervals, intervalCount),
      dwell: timingStats(dwell, dwellCount),
      flight: timingStats(flights, flightCount),
    };
  };
}
