import { announcement, type Announcement } from './announcements.js';
import { queueJoinedText, tableReadyText } from './guest-texts.js';

const facts = { venueName: 'Maple', partyName: 'Ana', placeKept: true, link: 'https://g.example/q/' };
const KINDS: Announcement[] = ['offer-withdrawn', 'offer-lapsed', 'queue-left', 'queue-removed'];

describe('guest announcements', () => {
  it.each(KINDS)('%s never states a position, and a kept place is said to be kept', (kind) => {
    for (const placeKept of [true, false]) {
      const a = announcement(kind, { ...facts, placeKept });
      for (const text of [a.subject, a.body, a.text]) expect(text).not.toMatch(/position|\bnumber\b|#\d/i);
      // The email names the venue in its subject; a text, which has none, in its first words.
      expect(a.subject).toContain('Maple');
      expect(a.text.startsWith('Maple: ')).toBe(true);
      if (!kind.startsWith('queue-')) expect(a.text).toMatch(placeKept ? /place/ : /no longer in the queue/);
    }
  });

  it('a lapsed offer in the spec’s words; under leave-queue it says the party is out', () => {
    expect(announcement('offer-lapsed', facts).text).toBe(
      'Maple: The offer expired and its table was released. Nothing lost — the place was kept; watch for the next offer. Your queue page: https://g.example/q/',
    );
    const out = announcement('offer-lapsed', { ...facts, placeKept: false });
    expect(out.text).not.toContain('Nothing lost');
    expect(out.text).not.toContain('queue page');
    expect(announcement('offer-withdrawn', { ...facts, placeKept: false }).text).toBe(
      'Maple: The host withdrew the table offered to you. You are no longer in the queue; ask the desk if you would like to join again.',
    );
  });

  it('texts without PUBLIC_URL name no address, and stay short', () => {
    const joined = queueJoinedText({
      venueName: 'Maple',
      partySize: 4,
      position: 3,
      waitMinutes: 60,
      joinedAt: '7:42 PM',
      link: null,
    });
    expect(joined).toBe(
      'Maple: you are in the queue for 4 (joined 7:42 PM). Queue position when you joined: 3. Quoted wait about 60 min (approx), an estimate, not a promise. We will text you when your table is ready.',
    );
    const ready = tableReadyText({ venueName: 'Maple', holdLength: '1 minute', expiresAtLocal: '7:43 PM', link: null });
    expect(ready).toBe(
      'Maple: your table is ready. Please confirm within 1 minute, by 7:43 PM, through your queue link or with the host.',
    );
    for (const t of [joined, ready]) expect(t.length).toBeLessThanOrEqual(320);
  });
});
