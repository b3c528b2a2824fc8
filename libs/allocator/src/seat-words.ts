const WORDS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** 2 → "two"; numerals past twenty. */
export function inWords(n: number): string {
  return WORDS[n] ?? String(n);
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The head-of-queue explanation: "Two seats available; the oldest group needs three." */
export function headDoesNotFit(available: number, needed: number): string {
  return `${capitalise(inWords(available))} ${available === 1 ? 'seat' : 'seats'} available; the oldest group needs ${inWords(needed)}.`;
}

/**
 * Why a pool promotion holds nobody when no group waits: "The queue is empty." only when no group
 * holds seats either; else "No group is waiting; two groups hold seats." (a Promote under a queue
 * listing the groups holding seats answered that the queue was empty).
 */
export function nobodyWaiting(holding: number): string {
  if (holding <= 0) return 'The queue is empty.';
  return `No group is waiting; ${inWords(holding)} ${holding === 1 ? 'group holds' : 'groups hold'} seats.`;
}
