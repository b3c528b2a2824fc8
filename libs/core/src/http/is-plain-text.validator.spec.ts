import { plainTextProblem } from './is-plain-text.validator.js';

const code = (c: number): string => String.fromCharCode(c);
/** Every C0 and C1 control and DEL (Unicode category Cc). */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, c) => c), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map(code);
const BIDI = [
  '\u061C',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];

describe('plainTextProblem', () => {
  it('refuses every control character, line separators and every bidi control in a name', () => {
    for (const c of [...CONTROLS, '\u2028', '\u2029', ...BIDI])
      expect([c, plainTextProblem(`A${c}B`, 'name')]).not.toEqual([c, null]);
  });

  it('lets a note keep LF, CR and tab, and nothing else of those', () => {
    const allowed = new Set(['\t', '\n', '\r']);
    for (const c of [...CONTROLS, '\u2028', '\u2029', ...BIDI]) {
      expect([c, plainTextProblem(`A${c}B`, 'note', { lines: true }) === null]).toEqual([c, allowed.has(c)]);
    }
  });

  it('leaves the characters real names are written with alone', () => {
    for (const name of ["Zoë O'Brien-Núñez", '山田 太郎', 'محمد الأحمد', 'שרה כהן', 'مهسا می‌خواهد', '👨‍👩‍👧‍👦', 'A\u00a0B']) {
      expect(plainTextProblem(name, 'name')).toBeNull();
    }
  });

  it('calls a name blank when it draws nothing, and leaves an empty one to MinLength and notes alone', () => {
    for (const name of [' ', '\t', ' \n ', '\u200B', '\u3164', '\u2800', '\u0301', '\u{E0041}', '\uFE0F'])
      expect([name, plainTextProblem(name, 'name')]).toEqual([name, 'name must not be blank']);
    expect(plainTextProblem('', 'name')).toBeNull();
    expect(plainTextProblem(' \n ', 'note', { lines: true })).toBeNull();
  });

  it('names the field in its message, and leaves non-strings to @IsString', () => {
    expect(plainTextProblem('a\nb', 'label')).toBe('label must be a single line: line breaks are not allowed');
    expect(plainTextProblem(42, 'label')).toBeNull();
  });
});
