import { useId, useState } from 'preact/hooks';
import { t } from '../i18n/index.js';
import { Confirm, inputValue } from '../ui.js';

// What the operator's queues share (submerchants, bank accounts, anticipations, charges in review); their words are
// in the language catalogue (`t.queue`), as the queue pages load different areas.

/** How long an item has waited: minutes, then hours, then days. */
export function formatWait(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return t.queue.wait.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t.queue.wait.hours(hours, minutes % 60);
  return t.queue.wait.days(Math.floor(hours / 24));
}

/** A decision that needs a reason (reject, block): a dialog with a required text, refused in place when empty. */
export function ReasonDialog(props: {
  title: string | null;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
  /** Reject unless told. */
  confirmLabel?: string;
}) {
  const [reason, setReason] = useState('');
  // Set when the decision was confirmed without a reason: the dialog stays open and says what is missing.
  const [missing, setMissing] = useState(false);
  const errorId = useId();
  const reset = () => {
    setReason('');
    setMissing(false);
  };
  return (
    <Confirm
      open={props.title !== null}
      title={props.title ?? ''}
      confirmLabel={props.confirmLabel ?? t.queue.reject}
      danger
      onCancel={() => {
        reset();
        props.onCancel();
      }}
      onConfirm={() => {
        if (!reason.trim()) {
          setMissing(true);
          return;
        }
        props.onSubmit(reason.trim());
        reset();
      }}
    >
      <label class="stack">
        {t.queue.reason}
        <textarea
          required
          rows={3}
          value={reason}
          aria-invalid={missing}
          aria-describedby={missing ? errorId : undefined}
          onInput={(e) => {
            setReason(inputValue(e));
            setMissing(false);
          }}
        />
      </label>
      {missing && (
        <span id={errorId} class="field-error">
          {t.queue.reasonRequired}
        </span>
      )}
    </Confirm>
  );
}
