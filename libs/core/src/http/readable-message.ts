/**
 * A refusal's words as a sentence a person reads, for every client of the API (not only our pages,
 * which used to capitalise them themselves): class-validator and the checks before it start with the
 * raw property name ("partySize must not be greater than 8"); the message says the field's plain name
 * instead ("Party size must not be greater than 8"). `details.fields[].field` keeps the raw name:
 * clients key on it.
 */

/** The words of a property name: "partySize" → "party size", "tableIds" → "table IDs". */
function words(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase())
    .map((w) => (w === 'id' ? 'ID' : w === 'ids' ? 'IDs' : w === 'url' ? 'URL' : w))
    .join(' ');
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A field's plain name: "partySize" → "Party size", "email" → "Email", "policy.holdSeconds" → "Hold seconds". */
export function plainName(field: string): string {
  const named = field.split('.').filter((s) => s !== '' && !/^\d+$/.test(s));
  return capitalised(words(named[named.length - 1] ?? field));
}

const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;

/**
 * `message` as a sentence: a leading raw field name (the dotted `field`, or its last part, which is
 * what class-validator's `$property` says) becomes its plain name, and the first letter a capital.
 * A message already starting with a capital (the spec's own words) is left as it is.
 */
export function readableMessage(message: string, field?: string): string {
  if (message === '' || /^[A-Z]/.test(message)) return message;
  return lengthInWords(namedPlainly(message, field));
}

/**
 * class-validator's words for a length ("must be longer than or equal to 8 characters") as a person
 * says them: "must be at least 8 characters long"; a required text "must not be empty".
 */
function lengthInWords(message: string): string {
  return message
    .replace(/ must be longer than or equal to 1 characters$/, ' must not be empty')
    .replace(/ must be longer than or equal to (\d+) characters$/, ' must be at least $1 characters long')
    .replace(/ must be shorter than or equal to (\d+) characters$/, ' must be at most $1 characters long');
}

function namedPlainly(message: string, field?: string): string {
  // class-validator's refusal of an unknown field (whitelist), and the prototype-key check's.
  const unknown = /^property (\S+) should not exist$/.exec(message);
  if (unknown) return `The field "${unknown[1]}" is not one this request takes`;
  const nested = /^nested property (\S+) must be either object or array$/.exec(message);
  if (nested) return `${plainName(nested[1] ?? '')} must be an object or a list`;
  const each = /^each value in (\S+) (.*)$/.exec(message);
  if (each) return `Each value in ${words(each[1] ?? '')} ${each[2] ?? ''}`;
  const candidates = field ? [field, field.split('.').pop() ?? field] : [];
  for (const name of candidates) {
    if (name !== '' && message.startsWith(`${name} `)) return `${plainName(name)}${message.slice(name.length)}`;
  }
  // No field given (or another named first): a leading property name still reads as its plain name.
  const first = /^(\S+)( .*)$/.exec(message);
  if (first && IDENTIFIER.test(first[1] ?? '') && /[A-Z]/.test(first[1] ?? ''))
    return `${plainName(first[1] ?? '')}${first[2] ?? ''}`;
  return capitalised(message);
}
