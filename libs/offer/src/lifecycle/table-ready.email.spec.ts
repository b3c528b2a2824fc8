import { holdLengthWords, tableReadyEmail } from './table-ready.email.js';

describe('the table-ready email', () => {
  it('says the venue’s own hold length in words', () => {
    expect([60, 300, 600, 90, 1800, 1530, 45, 1, 61].map(holdLengthWords)).toEqual([
      '1 minute',
      '5 minutes',
      '10 minutes',
      '1 minute 30 seconds',
      '30 minutes',
      '25 minutes 30 seconds',
      '45 seconds',
      '1 second',
      '1 minute 1 second',
    ]);
  });

  it('keeps the spec’s sentences, with the hold length and the stamp filled in', () => {
    const { subject, body } = tableReadyEmail({
      venueName: 'Maple',
      partyName: 'Ana',
      holdSeconds: 600,
      expiresAtLocal: '1:35 AM CST',
    });
    expect(subject).toBe('Your table is ready — Maple');
    expect(body.split('\n')).toEqual([
      'Hello Ana,',
      '',
      'Your table is ready — Maple',
      'Please confirm within 10 minutes — the offer expires at 1:35 AM CST.',
      'Confirm through your queue link so we can seat you.',
    ]);
  });
});
