import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { acceptAtOnce, createValidationPipe } from '@hostboard/core';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/**
 * The comparison every DTO with an `@AcceptedAtOnce` check needs (libs/core/src/http/accepted-at-once.ts):
 * on one field's edge cases at a time, in an otherwise valid body, the quick check accepts only what
 * class-validator accepts and builds the same DTO, and every refusal is still class-validator's, word
 * for word. The edge cases and the decorators' rules are each DTO's own; the comparison is one.
 */
export interface AcceptedAtOnceCase {
  /** "an offer body", "a join body": said in the test names. */
  readonly what: string;
  readonly dto: new () => object;
  readonly acceptedAtOnce: (body: Record<string, unknown>) => boolean;
  /** A valid body; each variant replaces one of its fields (undefined: the field left out). */
  readonly base: Record<string, unknown>;
  readonly variants: Record<string, readonly unknown[]>;
  /** At least this many edge cases take the quick way, else the comparison would compare nothing. */
  readonly minAtOnce: number;
  /** At least this many edge cases are refused by class-validator. */
  readonly minRefused: number;
}

/** Every body: `base` with one field replaced by one of its variants. */
function bodies(c: AcceptedAtOnceCase): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [field, values] of Object.entries(c.variants)) {
    for (const v of values) {
      const body: Record<string, unknown> = { ...c.base };
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

export function describeAcceptedAtOnce(c: AcceptedAtOnceCase): void {
  const meta: ArgumentMetadata = { type: 'body', metatype: c.dto, data: '' };

  /** class-transformer and class-validator, as the global pipe ran them for every body before. */
  async function throughClassValidator(body: unknown): Promise<{ dto?: unknown; refused?: unknown }> {
    try {
      return { dto: await ValidationPipe.prototype.transform.call(createValidationPipe(), copy(body), meta) };
    } catch (err) {
      return { refused: err };
    }
  }

  describe(`${c.what} accepted at once (without class-validator)`, () => {
    it('is only ever a body class-validator accepts, and becomes the same DTO', async () => {
      let atOnce = 0;
      for (const body of bodies(c)) {
        const slow = await throughClassValidator(body);
        if (!c.acceptedAtOnce(body)) continue;
        atOnce++;
        expect({ body, refused: slow.refused }).toEqual({ body, refused: undefined });
        expect(acceptAtOnce(c.dto, copy(body))).toBeInstanceOf(c.dto);
        const fast: unknown = await createValidationPipe().transform(copy(body), meta);
        expect(fast).toBeInstanceOf(c.dto);
        expect(Object.keys(fast as object)).toEqual(Object.keys(slow.dto as object));
        expect(fast).toEqual(slow.dto);
      }
      expect(atOnce).toBeGreaterThanOrEqual(c.minAtOnce);
    });

    it('leaves every refusal to class-validator, word for word', async () => {
      let refused = 0;
      for (const body of bodies(c)) {
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
      expect(refused).toBeGreaterThanOrEqual(c.minRefused);
    });
  });
}

/**
 * The DTO's decorator rules, one line each ("entryVersion: min [1]"), sorted: the quick check states
 * them again, so a spec lists them and fails when a decorator changes without the check.
 * `constraintsSaid` words a rule's constraints where their JSON says more than the DTO set.
 */
export function decoratorRules(
  dto: new () => object,
  constraintsSaid: (m: ValidationMetadata, constraints: unknown[]) => string = (_m, constraints) => JSON.stringify(constraints),
): string[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .map((m) => {
      const constraints = ((m.constraints ?? []) as unknown[]).filter((k) => typeof k !== 'function');
      const said = constraints.length > 0 ? ` ${constraintsSaid(m, constraints)}` : '';
      return `${m.propertyName}: ${m.name ?? m.type}${said}${m.each ? ' each' : ''}`;
    })
    .sort();
}
