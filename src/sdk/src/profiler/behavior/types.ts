/** Count and shape of a series of durations (ms): enough to tell a rhythm from a metronome, nothing more. */
export interface TimingStats {
  count: number;
  median: number;
  /** Median absolute deviation from the median: the spread, robust to a pause or two. */
  mad: number;
  /** Standard deviation. */
  sd: number;
  min: number;
}

/**
 * How the page's text fields were filled and its pointer used, in aggregates only: never a value, never which
 * key. Sent with `sdk.cards.tokenize()` (`fraud.behavior` of `POST /v1/tokens`). Times in ms.
 */
export interface BehaviorReport {
  /** From the collector's start to this reading (the card token request). */
  elapsed_ms: number;
  /** From the start to the first keystroke or input in a text field; null when there was none. */
  first_input_ms: number | null;
  /** Text fields (input, textarea) that received input. */
  fields: number;
  /** Of those, fields whose every input came with no keystroke, paste, drop or autofill behind it. */
  keyless_fields: number;
  /** Keystrokes in text fields (keydown, auto-repeat excluded), and those a soft keyboard or IME sent. */
  keys: number;
  ime_keys: number;
  /** Input events in text fields, and those with nothing behind them (no key within 50 ms, no paste/drop/autofill). */
  inputs: number;
  keyless_inputs: number;
  pastes: number;
  drops: number;
  /** Inputs the browser made: autofill, a spelling correction. */
  autofills: number;
  /** Between successive keystrokes in text fields (pauses over 5 s left out), and how long keys were held. */
  intervals: TimingStats | null;
  dwell: TimingStats | null;
  /** From a key's release to the next keystroke when no key was held, and keystrokes pressed while one was. */
  flight: TimingStats | null;
  overlaps: number;
  /** Pointer presses by kind. */
  mouse_clicks: number;
  touch_clicks: number;
  pen_clicks: number;
  /** Mouse presses the pointer travelled to (several moves since the previous press). */
  travelled_clicks: number;
  /** Mouse moves seen, and the length of their path in px. */
  mouse_moves: number;
  path_px: number;
  touches: number;
  focus_changes: number;
  tabs: number;
  submits: number;
}
