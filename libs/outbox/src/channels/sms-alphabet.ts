/**
 * Typographic characters our texts (the spec's "Nothing lost — …") and venue names ("Joe’s") hold,
 * with their twins in the SMS alphabet (GSM-7). One character outside it sends the whole text as
 * UCS-2, 70 characters a part instead of 160: the 163 characters of the lapse text cost three parts
 * instead of two, and a 149-character table-ready text three instead of one. Letters outside it
 * (a name in Greek or with a "ë") are kept: they are the name.
 */
const TWINS: Readonly<Record<string, string>> = {
  '\u2014': '-', // em dash
  '\u2013': '-', // en dash
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2026': '...',
  '\u00A0': ' ', // no-break space
  '\u202F': ' ', // narrow no-break space (some locales put it before AM and PM)
};

const TYPOGRAPHIC = new RegExp(`[${Object.keys(TWINS).join('')}]`, 'g');

/** The text with typographic dashes, quotes, ellipses and spaces written in the SMS alphabet. */
export function inSmsAlphabet(text: string): string {
  return text.replace(TYPOGRAPHIC, (c) => TWINS[c] ?? c);
}
