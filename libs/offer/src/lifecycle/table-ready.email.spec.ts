import { holdLengthWords, tableReadyEmail } from './table-ready.email.js';

describe('the table-ready email', () => {
  it('says the venue’s own hold length in words', () => {
    expect([60, 300, 600, 90, 1800].map(holdLengthWords)).toEqual([
      '1 minute',
      '5 minutes',
      '10 minutes',
      '90 seconds',
      '30 minutes',
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
