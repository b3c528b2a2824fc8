import { registerDecorator } from 'class-validator';

/**
 * A staff email in its usual Unicode form (NFKC): full-width letters and accents typed as separate
 * marks read the same as another address, yet would be stored as another account beside it (a
 * look-alike in the staff list, a second invitation, another recipient for the invitation limits).
 * Refused rather than rewritten: sign-in compares the stored spelling, which older rows keep.
 */
export function IsUsualForm(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isUsualForm',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: '$property must be written in ordinary characters (no full-width letters, no accents typed as separate marks)',
      },
      validator: { validate: (value: unknown) => typeof value !== 'string' || value === value.normalize('NFKC') },
    });
  };
}
