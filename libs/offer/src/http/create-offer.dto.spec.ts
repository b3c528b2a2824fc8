import { decoratorRules, describeAcceptedAtOnce } from '../../../../test/support/accepted-at-once-spec.js';
import { CreateOfferDto, offerBodyAcceptedAtOnce } from './create-offer.dto.js';

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

describeAcceptedAtOnce({
  what: 'an offer body',
  dto: CreateOfferDto,
  acceptedAtOnce: offerBodyAcceptedAtOnce,
  base,
  variants,
  minAtOnce: 6,
  minRefused: 21,
});

describe("an offer body's quick way", () => {
  it("is taken for a host's offer of one to four tables", () => {
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
    const rules = decoratorRules(CreateOfferDto);
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
