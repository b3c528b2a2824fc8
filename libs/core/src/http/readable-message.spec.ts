import { plainName, readableMessage } from './readable-message.js';

describe('readableMessage', () => {
  it('names the field plainly and starts with a capital', () => {
    expect(readableMessage('partySize must not be greater than 100000', 'partySize')).toBe(
      'Party size must not be greater than 100000',
    );
    expect(readableMessage('email must be an email address, such as name@example.com', 'email')).toBe(
      'Email must be an email address, such as name@example.com',
    );
    expect(readableMessage('reviewer must not be blank', 'decisions.reviewer')).toBe('Reviewer must not be blank');
    expect(readableMessage('tables.2.capacity is out of range', 'tables.2.capacity')).toBe('Capacity is out of range');
    expect(readableMessage('each value in tableIds must be a UUID', 'tableIds')).toBe('Each value in table IDs must be a UUID');
    expect(readableMessage('property seats should not exist', 'seats')).toBe('The field "seats" is not one this request takes');
    expect(readableMessage('poolCapacity applies to pool venues only.')).toBe('Pool capacity applies to pool venues only.');
    expect(readableMessage('value is out of range', '')).toBe('Value is out of range');
  });

  it('says a length as a person does', () => {
    expect(readableMessage('newPassword must be longer than or equal to 8 characters', 'newPassword')).toBe(
      'New password must be at least 8 characters long',
    );
    expect(readableMessage('note must be shorter than or equal to 200 characters', 'note')).toBe(
      'Note must be at most 200 characters long',
    );
    expect(readableMessage('currentPassword must be longer than or equal to 1 characters', 'currentPassword')).toBe(
      'Current password must not be empty',
    );
  });

  it("leaves the spec's own words (already a sentence) as they are", () => {
    expect(readableMessage('The queue accepts parties of at most 6.', 'partySize')).toBe(
      'The queue accepts parties of at most 6.',
    );
    expect(readableMessage('A queue party needs an email or a phone number.')).toBe(
      'A queue party needs an email or a phone number.',
    );
  });

  it('plain names', () => {
    expect(['entryId', 'timeZone', 'holdSeconds', 'x'].map(plainName)).toEqual(['Entry ID', 'Time zone', 'Hold seconds', 'X']);
  });
});
