import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '@hostboard/core';
import { JoinQueueDto, joinBodyAcceptedAtOnce } from './join-queue.dto.js';

const meta: ArgumentMetadata = { type: 'body', metatype: JoinQueueDto, data: '' };
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

function bodies(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [field, values] of Object.entries(variants)) {
    for (const v of values) {
      const body: Record<string, unknown> = { ...base };
      if (v === undefined) delete body[field];
      else body[field] = v;
      out.push(body);
    }
  }
  return out;
}

/**
 * A copy as the body parser makes it: `structuredClone` would make its objects in Node's own realm,
 * not the test's, and acceptAtOnce takes only plain objects of this realm (it would go the slow way).
 */
const copy = (body: unknown): unknown => JSON.parse(JSON.stringify(body)) as unknown;

/** class-transformer and class-validator, as the global pipe ran them for every body before. */
async function throughClassValidator(body: unknown): Promise<{ dto?: unknown; refused?: unknown }> {
  try {
    return { dto: await ValidationPipe.prototype.transform.call(createValidationPipe(), copy(body), meta) };
  } catch (err) {
    return { refused: err };
  }
}

describe('a join body accepted at once (without class-validator)', () => {
  it('is only ever a body class-validator accepts, and becomes the same DTO', async () => {
    let atOnce = 0;
    for (const body of bodies()) {
      const slow = await throughClassValidator(body);
      if (!joinBodyAcceptedAtOnce(body)) continue;
      atOnce++;
      expect({ body, refused: slow.refused }).toEqual({ body, refused: undefined });
      const fast: unknown = await createValidationPipe().transform(copy(body), meta);
      expect(fast).toBeInstanceOf(JoinQueueDto);
      expect(Object.keys(fast as object)).toEqual(Object.keys(slow.dto as object));
      expect(fast).toEqual(slow.dto);
    }
    // The common bodies do take the quick way (else this spec would compare nothing).
    expect(atOnce).toBeGreaterThan(15);
  });

  it('leaves every refusal to class-validator, word for word', async () => {
    for (const body of bodies()) {
      const slow = await throughClassValidator(body);
      if (!slow.refused) continue;
      const answer = await createValidationPipe()
        .transform(copy(body), meta)
        .then(
          () => 'accepted',
          (err: unknown) => err,
        );
      expect({ body, answer }).toEqual({ body, answer: slow.refused });
    }
  });

  it('takes the quick way for a desk join with an email or a phone', () => {
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
    const rules = getMetadataStorage()
      .getTargetValidationMetadatas(JoinQueueDto, '', true, false)
      .map((m) => {
        const constraints = (m.constraints ?? []).filter((c: unknown) => typeof c !== 'function');
        // validator's isEmail fills its options object with its defaults: the option we set is what counts.
        const said = m.name === 'isEmail' ? JSON.stringify(constraints, ['blacklisted_chars']) : JSON.stringify(constraints);
        return `${m.propertyName}: ${m.name ?? m.type}${constraints.length > 0 ? ` ${said}` : ''}`;
      })
      .sort();
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
