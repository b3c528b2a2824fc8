import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * Text that reaches other people (the board, the CSV, the guests' emails and texts) must be what it
 * looks like. A name is one line: a party named "Bob\n\nYour table is ready. Confirm at http://…"
 * wrote its own lines into the email that starts "Hello {name},". Control characters (BEL, ESC and
 * the rest of Unicode's Cc) are never text, and the bidi controls (U+202A–U+202E, U+2066–U+2069,
 * U+200E, U+200F, U+061C: Unicode's Bidi_Control) are invisible and redraw the text around them
 * ("\u202Egnp.exe" shows as "exe.png"). Arabic and Hebrew names need none of them: the reading
 * order comes from the letters themselves.
 */

/** Line breaks: LF, CR, NEL (U+0085) and the line and paragraph separators. */
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/u;
/** The line breaks no keyboard types; each reader breaks (or does not break) the text at them differently. */
const UNUSUAL_LINE_BREAK = /[\u0085\u2028\u2029]/u;
/** A control character other than a tab or a line break (those are judged on their own). */
const OTHER_CONTROL = /[^\P{Cc}\t\n\r\u0085]/u;
const TAB = /\t/u;
const BIDI_CONTROL = /\p{Bidi_Control}/u;
/**
 * What draws nothing: white space, the default-ignorable code points (zero-width spaces and joiners,
 * the soft hyphen, Hangul fillers, variation selectors, tag characters…), combining marks with no
 * letter to sit on, and the blank Braille pattern. A name made only of these shows as an empty row.
 */
const DRAWS_NOTHING = /[\s\p{Default_Ignorable_Code_Point}\p{M}\u2800]/gu;

export interface PlainTextOptions {
  /** Free text such as a note: ordinary line breaks (LF, CRLF) and tabs are allowed. */
  lines?: boolean;
}

/** Why `value` is not plain text for the field, or null when it is (or is not a string: @IsString says so). */
export function plainTextProblem(value: unknown, field: string, options: PlainTextOptions = {}): string | null {
  if (typeof value !== 'string') return null;
  // A name is read out and shown on the board: one that draws nothing names nobody. Said first, so
  // that "\t" or " \n " is told it is blank rather than what it is made of. ("" is left to MinLength.)
  if (!options.lines && value !== '' && value.replace(DRAWS_NOTHING, '') === '') return `${field} must not be blank`;
  if (options.lines) {
    if (UNUSUAL_LINE_BREAK.test(value))
      return `${field} must not contain Unicode line or paragraph separators; use ordinary line breaks`;
  } else {
    if (LINE_BREAK.test(value)) return `${field} must be a single line: line breaks are not allowed`;
    if (TAB.test(value)) return `${field} must not contain tabs or other control characters`;
  }
  if (OTHER_CONTROL.test(value)) return `${field} must not contain control characters`;
  if (BIDI_CONTROL.test(value)) return `${field} must not contain invisible text-direction characters (such as U+202E)`;
  return null;
}

/**
 * A name (`lines` off: one line, no tab, something visible) or free text (`lines: true`) without
 * control characters other than line breaks and tabs, and without bidi controls. NUL and lone surrogates are refused
 * earlier, for every field, by the global pipe (hostile-input.ts).
 */
export function IsPlainText(options: PlainTextOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const field = String(propertyName);
    registerDecorator({
      name: 'isPlainText',
      target: target.constructor,
      propertyName: field,
      validator: {
        validate: (value: unknown) => plainTextProblem(value, field, options) === null,
        defaultMessage: (args?: ValidationArguments) =>
          plainTextProblem(args?.value, field, options) ?? `${field} must be plain text`,
      },
    });
  };
}
