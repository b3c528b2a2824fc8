import { useState } from 'preact/hooks';

interface Props {
  label: string;
  value: number;
  min?: number;
  max?: number;
  name?: string;
  /**
   * Why there is no more than `max` (the venue's cap, in its own words): shown while the value is at
   * it, the + then stops, and a larger number typed is taken as `max` at once, so what is shown is
   * what is sent (the form sent the last number in range while showing the one typed past it).
   */
  maxNote?: string;
  onChange: (n: number) => void;
}

/**
 * − n + with large targets; the number can also be typed. What is typed is kept as typed while the
 * field has focus: replacing an emptied field with the minimum at once turned "backspace, 6" into 16.
 * A whole number in range counts as soon as it is typed; the field shows the value in use on leaving.
 */
export function Stepper({ label, value, min = 1, max = 999, name, maxNote, onChange }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const clamp = (n: number): number => Math.min(max, Math.max(min, n));
  const step = (n: number): void => {
    setDraft(null);
    onChange(clamp(n));
  };
  return (
    <div class="stepper" role="group" aria-label={label}>
      <span>{label}</span>
      <button
        type="button"
        class="btn btn-secondary"
        aria-label="One fewer"
        data-testid={`${name ?? 'n'}-less`}
        onClick={() => step(value - 1)}
      >
        −
      </button>
      <input
        name={name}
        type="number"
        inputMode="numeric"
        aria-label={label}
        min={min}
        max={max}
        value={draft ?? String(value)}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          setDraft(typed);
          const n = Number(typed);
          if (maxNote && typed.trim() !== '' && Number.isFinite(n) && n > max) {
            setDraft(String(max));
            onChange(max);
          } else if (typed.trim() !== '' && Number.isInteger(n) && n >= min && n <= max) onChange(n);
        }}
        onBlur={() => {
          const n = Number(draft);
          if (draft !== null && draft.trim() !== '' && Number.isFinite(n)) onChange(clamp(Math.round(n)));
          setDraft(null);
        }}
      />
      <button
        type="button"
        class="btn btn-secondary"
        aria-label="One more"
        data-testid={`${name ?? 'n'}-more`}
        disabled={maxNote !== undefined && value >= max}
        onClick={() => step(value + 1)}
      >
        +
      </button>
      {maxNote && value >= max && (
        <span class="hint stepper-note" role="status" data-testid={`${name ?? 'n'}-cap`}>
          {maxNote}
        </span>
      )}
    </div>
  );
}
