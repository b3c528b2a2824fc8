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
