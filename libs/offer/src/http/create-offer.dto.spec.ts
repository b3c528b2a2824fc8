import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { acceptAtOnce, createValidationPipe } from '@hostboard/core';
import { CreateOfferDto, offerBodyAcceptedAtOnce } from './create-offer.dto.js';

const meta: ArgumentMetadata = { type: 'body', metatype: CreateOfferDto, data: '' };
const id = (n: number): string => `0191f0a4-7c3e-7${String(n).padStart(3, '0')}-8a1b-2c3d4e5f6a7b`;
const base = { entryId: id(1), entryVersion: 3, tableIds: [id(2)] };

/** One field's edge cases, each in an otherwise valid body (undefined: the field left out). */
const variants: Record<string, unknown[]> = {
  entryId: [
    undefined,
    '',
    'not-a-uuid',
    id(9).toUpperCase(),
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '0191f0a4-7c3e-7000-8a1b-2c3d4e5f6a7',
    `{${id(9)}}`,
    id(9).replace(/-/g, ''),
    null,
    7,
    [id(9)],
  ],
  entryVersion: [undefined, 0, 1, 2.5, '3', -1, 2147483647, null, true, [3]],
  tableIds: [
    undefined,
    [],
    [id(2), id(3), id(4), id(5)],
    [id(2), id(3), id(4), id(5), id(6)],
    [id(2), id(2)],
    ['T1'],
    [id(2), null],
    [id(2), 5],
    [[id(2)]],
    id(2),
    null,
    {},
    { 0: id(2), length: 1 },
  ],
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

/** class-transformer and class-validator, as the global pipe ran them for every offer before. */
async function throughClassValidator(body: unknown): Promise<{ dto?: unknown; refused?: unknown }> {
  try {
    return { dto: await ValidationPipe.prototype.transform.call(createValidationPipe(), copy(body), meta) };
  } catch (err) {
    return { refused: err };
  }
}

describe('an offer body accepted at once (without class-validator)', () => {
  it('is only ever a body class-validator accepts, and becomes the same DTO', async () => {
    let atOnce = 0;
    for (const body of bodies()) {
      const slow = await throughClassValidator(body);
      if (!offerBodyAcceptedAtOnce(body)) continue;
      atOnce++;
      expect({ body, refused: slow.refused }).toEqual({ body, refused: undefined });
      expect(acceptAtOnce(CreateOfferDto, copy(body))).toBeInstanceOf(CreateOfferDto);
      const fast: unknown = await createValidationPipe().transform(copy(body), meta);
      expect(fast).toBeInstanceOf(CreateOfferDto);
      expect(Object.keys(fast as object)).toEqual(Object.keys(slow.dto as object));
      expect(fast).toEqual(slow.dto);
    }
    // The common bodies do take the quick way (else this spec would compare nothing).
    expect(atOnce).toBeGreaterThan(5);
  });

  it('leaves every refusal to class-validator, word for word', async () => {
    let refused = 0;
    for (const body of bodies()) {
      const slow = await throughClassValidator(body);
      if (!slow.refused) continue;
      refused++;
      const answer = await createValidationPipe()
        .transform(copy(body), meta)
        .then(
          () => 'accepted',
          (err: unknown) => err,
        );
      expect({ body, answer }).toEqual({ body, answer: slow.refused });
    }
    expect(refused).toBeGreaterThan(20);
  });

  it("takes the quick way for a host's offer of one to four tables", () => {
    expect(offerBodyAcceptedAtOnce({ entryId: id(1), entryVersion: 1, tableIds: [id(2)] })).toBe(true);
    expect(offerBodyAcceptedAtOnce({ entryId: id(1), entryVersion: 12, tableIds: [id(2), id(3), id(4), id(5)] })).toBe(true);
    expect(offerBodyAcceptedAtOnce({ entryId: id(1), entryVersion: 1, tableIds: [] })).toBe(false);
  });
});

describe('the offer body check kept in step with the DTO', () => {
  /**
   * The rules offerBodyAcceptedAtOnce states again: this list changes with the decorators, and
   * whoever changes it updates the check too (a rule added without it would be skipped by the check).
   */
  it('states the same rules as the decorators', () => {
    const rules = getMetadataStorage()
      .getTargetValidationMetadatas(CreateOfferDto, '', true, false)
      .map((m) => {
        const constraints = (m.constraints ?? []).filter((c: unknown) => typeof c !== 'function');
        return `${m.propertyName}: ${m.name ?? m.type}${constraints.length > 0 ? ` ${JSON.stringify(constraints)}` : ''}${m.each ? ' each' : ''}`;
      })
      .sort();
    expect(rules).toEqual(
      [
        'entryId: isUuid [null]',
        'entryVersion: isInt',
        'entryVersion: min [1]',
        'tableIds: isArray',
        'tableIds: arrayMinSize [1]',
        'tableIds: arrayMaxSize [4]',
        'tableIds: isUuid ["all"] each',
      ].sort(),
    );
  });
});
