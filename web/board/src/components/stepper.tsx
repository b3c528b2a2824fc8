interface Props {
  label: string;
  value: number;
  min?: number;
  max?: number;
  name?: string;
  onChange: (n: number) => void;
}

/** − n + with large targets; the number can also be typed. */
export function Stepper({ label, value, min = 1, max = 999, name, onChange }: Props) {
  const clamp = (n: number): number => Math.min(max, Math.max(min, n));
  return (
    <div class="stepper" role="group" aria-label={label}>
      <span>{label}</span>
      <button
        type="button"
        class="btn btn-secondary"
        aria-label="One fewer"
        data-testid={`${name ?? 'n'}-less`}
        onClick={() => onChange(clamp(value - 1))}
      >
        −
      </button>
      <input
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        onInput={(e) => onChange(clamp(Number(e.currentTarget.value) || min))}
      />
      <button
        type="button"
        class="btn btn-secondary"
        aria-label="One more"
        data-testid={`${name ?? 'n'}-more`}
        onClick={() => onChange(clamp(value + 1))}
      >
        +
      </button>
    </div>
  );
}
