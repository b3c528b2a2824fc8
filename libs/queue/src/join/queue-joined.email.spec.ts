import { queueJoinedText } from '@hostboard/outbox';
import { queueJoinedEmail } from './queue-joined.email.js';

const facts = { venueName: 'Maple', partyName: 'Ana', partySize: 2, position: 1, joinedAt: '7:42 PM CDT' };
const waitLine = (waitMinutes: number): string | undefined =>
  queueJoinedEmail({ ...facts, waitMinutes })
    .body.split('\n')
    .find((l) => l.startsWith('Quoted wait'));
const textWait = (waitMinutes: number): string | undefined =>
  /Quoted wait about ([^(]+) \(approx\)/.exec(queueJoinedText({ ...facts, waitMinutes, link: null }))?.[1];

describe('the wait as the queueing email and text word it', () => {
  it('one minute is a minute, not "1 minutes"', () => {
    expect(waitLine(1)).toBe('Quoted wait: about 1 minute (approx). This is an estimate, not a promise.');
    expect(waitLine(25)).toBe('Quoted wait: about 25 minutes (approx). This is an estimate, not a promise.');
  });

  it('two hours and more read in hours, as the board shows them, not "about 2325 minutes"', () => {
    expect(waitLine(119)).toBe('Quoted wait: about 119 minutes (approx). This is an estimate, not a promise.');
    expect(waitLine(120)).toBe('Quoted wait: about 2 hours (approx). This is an estimate, not a promise.');
    expect(waitLine(2325)).toBe('Quoted wait: about 38 hours 45 minutes (approx). This is an estimate, not a promise.');
    expect(waitLine(181)).toBe('Quoted wait: about 3 hours 1 minute (approx). This is an estimate, not a promise.');
    expect(textWait(60)).toBe('60 min');
    expect(textWait(150)).toBe('2 h 30 min');
    expect(textWait(240)).toBe('4 h');
  });
});
