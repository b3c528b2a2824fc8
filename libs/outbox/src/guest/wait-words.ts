/**
 * A quoted wait in words, one rule everywhere a party or a host reads it: the board's queue row
 * ("told ~100 min"), the desk's token card, the queueing text and email. Minutes under two hours
 * ("45 min", "100 min"), from two hours on in hours ("2 h 30 min", "4 h"), never "2325 min" nor
 * "1 h 40 min" beside another screen's "100 min". No imports: the board page bundles this file too.
 */
export function waitShort(minutes: number): string {
  const total = Math.max(0, Math.floor(minutes));
  if (total < 120) return `${total} min`;
  const rest = total % 60;
  return `${Math.floor(total / 60)} h${rest === 0 ? '' : ` ${rest} min`}`;
}

/** The same wait spelled out for an email, by the same rule: "1 minute", "100 minutes", "2 hours 30 minutes". */
export function waitInWords(minutes: number): string {
  const total = Math.max(0, Math.floor(minutes));
  const unit = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (total < 120) return unit(total, 'minute');
  const rest = total % 60;
  return `${unit(Math.floor(total / 60), 'hour')}${rest === 0 ? '' : ` ${unit(rest, 'minute')}`}`;
}
