import { decoratorRules, describeAcceptedAtOnce } from '../../../../test/support/accepted-at-once-spec.js';
import { JoinQueueDto, joinBodyAcceptedAtOnce } from './join-queue.dto.js';

const base = { name: 'Ana', partySize: 2, email: 'ana@example.test' };

/** One field's edge cases, each in an otherwise valid body (undefined: the field left out). */
const variants: Record<string, unknown[]> = {
  name: [
    undefined,
    '',
    ' ',
    'a',
    'a'.repeat(160),
    'a'.repeat(161),
    '😀'.repeat(80),
    '😀'.repeat(81),
    'x\uFE0F'.repeat(80),
    'a\nb',
    'a\tb',
    '\u202Eabc',
    '\u200B',
    '\u0301',
    'Zoë',
    'אנה',
    null,
    3,
    ['Ana'],
    { first: 'Ana' },
  ],
  partySize: [undefined, 0, 1, 2.5, '2', 100000, 100001, -1, null, true, [2]],
  email: [
    undefined,
    '',
    '   ',
    'ana@example.test',
    'not-an-email',
    '"q"@example.test',
    'a b@example.test',
    'a\u200B@example.test',
    '\u202Emoc@example.test',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.test`,
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test`,
    'ANA@EXAMPLE.TEST',
    null,
    7,
  ],
  phone: [undefined, '', '+15551234567', '0'.repeat(32), '0'.repeat(33), 5551234, null],
  extra: [undefined, 'x', null],
};

describeAcceptedAtOnce({
  what: 'a join body',
  dto: JoinQueueDto,
  acceptedAtOnce: joinBodyAcceptedAtOnce,
  base,
  variants,
  minAtOnce: 16,
  minRefused: 20,
});

describe("a join body's quick way", () => {
  it('is taken for a desk join with an email or a phone', () => {
    expect(joinBodyAcceptedAtOnce({ name: 'Bench', partySize: 2, email: 'c1@b.test' })).toBe(true);
    expect(joinBodyAcceptedAtOnce({ name: 'Ana', partySize: 4, phone: '+15551234567' })).toBe(true);
    expect(joinBodyAcceptedAtOnce({ name: 'Ana', partySize: 4, email: '', phone: '+15551234567' })).toBe(false);
  });
});

describe('the join body check kept in step with the DTO', () => {
  /**
   * The rules joinBodyAcceptedAtOnce states again. A rule added to the DTO without its plain check
   * would let the check accept bodies the rule refuses (the edge cases above know only today's
   * rules): this list changes with the decorators, and whoever changes it updates the check too.
   */
  it('states the same rules as the decorators', () => {
    // validator's isEmail fills its options object with its defaults: the option we set is what counts.
    const rules = decoratorRules(JoinQueueDto, (m, constraints) =>
      m.name === 'isEmail' ? JSON.stringify(constraints, ['blacklisted_chars']) : JSON.stringify(constraints),
    );
    expect(rules).toEqual(
      [
        'name: isPlainText',
        'name: maxLength [160]',
        'name: minLength [1]',
        'name: isString',
        'partySize: max [100000]',
        'partySize: min [1]',
        'partySize: isInt',
        'email: maxLength [254]',
        'email: isEmail [{"blacklisted_chars":"\\""}]',
        'email: isEmailAddressText',
        'email: conditionalValidation',
        'email: isOptional',
        'phone: maxLength [32]',
        'phone: isString',
        'phone: isOptional',
      ].sort(),
    );
  });
});
