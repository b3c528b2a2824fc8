import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import {
  activeEntries,
  deskJoin,
  errorOf,
  EVERY_DAY,
  joined,
  messages,
  moveClock,
  party,
  publicJoin,
  refusal,
  sandboxVenue,
  uniq,
  type EntryBody,
  type JoinBody,
} from '../support/restaurant.js';

/**
 * Restaurant joins through real HTTP: the spec's guards in its order, input validation, the
 * one-entry-per-contact rule under racing joins, replays, the queueing email, staff corrections.
 * Sandbox venues (simulated clocks) in America/Chicago; Friday 12 June 2026, service 17:00–22:00.
 */
const FRIDAY_6PM = '2026-06-12T23:00:00.000Z';
const FRIDAY_4PM = '2026-06-12T21:00:00.000Z';
const DINNER = { days: EVERY_DAY, start: '17:00', end: '22:00', turnMinutes: 20 };

describe('restaurant queue: joining', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'rq-owner');
  });
  afterAll(() => t.close());

  describe('the guards, in the spec order: a request failing several gets the earliest answer', () => {
    it('published → queue on → cap → service window → one entry per contact, peeled off one by one', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: FRIDAY_4PM,
        windows: [DINNER],
        patch: { policy: { requireServiceWindow: false } },
      });
      // The party already in the queue (joined at the desk while windows were not required).
      const email = `dup-${uniq()}@example.test`;
      const first = await joined(t, owner, v.id, { name: 'First', partySize: 2, email });
      expect(first.entry.businessDate).toBe('2026-06-12');
      await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}`)
        .set(owner.auth)
        .send({ queueEnabled: false, policy: { requireServiceWindow: true } })
        .expect(200);

      // Fails all five: unpublished, queue off, 10 > 8, 16:00 is before service, same contact.
      const all = { name: 'Again', partySize: 10, email: email.toUpperCase() };
      const hidden = await publicJoin(t, v.slug, all);
      expect(refusal(hidden)).toEqual({ status: 404, code: 'NOT_FOUND' });
      // Exactly what an unknown slug answers: nothing says the venue exists.
      const unknown = await publicJoin(t, `no-such-${uniq()}`, all);
      expect(unknown.body).toEqual(hidden.body);

      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ published: true }).expect(200);
      const off = await publicJoin(t, v.slug, all);
      expect(refusal(off)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
      expect(errorOf(off).message).toBe('The queue is switched off at this venue.');

      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ queueEnabled: true }).expect(200);
      const cap = await publicJoin(t, v.slug, all);
      expect(refusal(cap)).toEqual({ status: 400, code: 'VALIDATION' });
      expect(errorOf(cap).message).toBe('The queue accepts parties of at most 8.');

      const noWindow = await publicJoin(t, v.slug, { ...all, partySize: 4 });
      expect(refusal(noWindow)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
      expect(errorOf(noWindow).message).toMatch(/service window/);

      await moveClock(t, owner, v.id, FRIDAY_6PM);
      const dup = await publicJoin(t, v.slug, { ...all, partySize: 4 });
      expect(refusal(dup)).toEqual({ status: 409, code: 'WAITLIST_DUPLICATE' });
      // An anonymous caller learns nothing about the party already queued (issue 13).
      expect(errorOf(dup)).toEqual({
        code: 'WAITLIST_DUPLICATE',
        message: 'This contact is already in the queue for today.',
        details: {},
      });

      // Nothing of the refused joins was saved; a new contact now passes every guard.
      expect((await activeEntries(t, owner, v.id)).map((e) => e.id)).toEqual([first.entry.id]);
      const ok = await publicJoin(t, v.slug, { name: 'New', partySize: 4, email: `new-${uniq()}@example.test` }).expect(201);
      expect((ok.body as JoinBody).entry.businessDate).toBe('2026-06-12');
    });

    it('the queue cap is the venue setting, and the cap message names it', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: FRIDAY_6PM,
        windows: [DINNER],
        published: true,
        patch: { queuePartyCap: 4 },
      });
      const res = await publicJoin(t, v.slug, party(5));
      expect(errorOf(res)).toEqual({
        code: 'VALIDATION',
        message: 'The queue accepts parties of at most 4.',
        details: { field: 'partySize' },
      });
      await publicJoin(t, v.slug, party(4)).expect(201);
    });

    it('the desk joins an unpublished venue (the published guard is the public side only), but not a switched-off queue', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const host = await addMember(t, v.id, owner, 'host');
      await joined(t, host, v.id, party(2));
      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ queueEnabled: false }).expect(200);
      const off = await deskJoin(t, host, v.id, { ...party(10), email: undefined });
      // Missing contact and the cap would fail too; at the desk the venue is known, so input comes first.
      expect(errorOf(off).message).toBe('A queue party needs an email or a phone number.');
      expect(refusal(await deskJoin(t, host, v.id, party(10)))).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    });

    it('a queue that requires no service window takes joins at any hour, on the venue-local date', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-06-13T04:30:00.000Z', // 23:30 Friday in Chicago, 04:30 Saturday in UTC
        windows: [DINNER],
        patch: { policy: { requireServiceWindow: false } },
      });
      const res = await joined(t, owner, v.id, party(2));
      expect(res.entry.businessDate).toBe('2026-06-12');
      // No window runs: nothing to multiply by, so the quote is the position alone, still marked approximate.
      expect(res).toMatchObject({
        position: 1,
        ahead: 0,
        quotedWaitMinutes: null,
        approx: true,
        quote: 'position 1 (0 ahead) (approx)',
      });
    });

    it('a window past midnight keeps the day it started as the business date', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-06-13T06:30:00.000Z', // 01:30 Saturday in Chicago
        windows: [{ days: [5], start: '18:00', end: '02:00', turnMinutes: 30 }],
      });
      const res = await joined(t, owner, v.id, party(2));
      expect(res.entry.businessDate).toBe('2026-06-12');
      expect(res.quotedWaitMinutes).toBe(30);
      await moveClock(t, owner, v.id, '2026-06-13T07:00:00.000Z'); // 02:00: the window has ended
      expect(refusal(await deskJoin(t, owner, v.id, party(2)))).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    });
  });

  describe('validation: each refused with VALIDATION, and nothing saved', () => {
    let v: { id: string; slug: string };
    beforeAll(async () => {
      v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER], published: true, patch: { queuePartyCap: 200 } });
    });

    const base = (): Record<string, unknown> => ({ name: 'Ana', partySize: 2, email: `ana-${uniq()}@example.test` });
    const cases: Array<[string, () => Record<string, unknown>, RegExp | string]> = [
      ['a name of 161 characters', () => ({ ...base(), name: 'x'.repeat(161) }), /name/],
      ['an empty name', () => ({ ...base(), name: '' }), /name/],
      ['party size 0', () => ({ ...base(), partySize: 0 }), /partySize/],
      ['party size 201', () => ({ ...base(), partySize: 201 }), /partySize/],
      ['party size 2.5', () => ({ ...base(), partySize: 2.5 }), /partySize/],
      ['party size "4" (a string)', () => ({ ...base(), partySize: '4' }), /partySize/],
      // National numbers are read with the venue's country (US here, from America/Chicago): this is too short.
      ['a phone neither E.164 nor a US number', () => ({ name: 'Ana', partySize: 2, phone: '555-0123' }), /phone number/],
      ['a phone that is E.164-shaped but no real number', () => ({ name: 'Ana', partySize: 2, phone: '+1000' }), /phone number/],
      // Security review: the phone is how a phone-only party hears from us, by text. Numbers that cannot
      // receive one, or that charge whoever texts them, were accepted because only isValid() was asked.
      ...(
        [
          ['premium rate (US 900)', '+19005550123'],
          ['toll free (US 800)', '+18005550123'],
          ['a landline (London, the example in the review)', '+44 20 7946 0958'],
          ['a landline (Berlin)', '+49 30 12345678'],
          ['shared cost (France 0810)', '+33 810 123 456'],
          ['a pager (UK 076)', '+44 7640 123456'],
          ['a UK universal access number (03)', '+44 300 123 4567'],
          ['voicemail (Italy 33)', '+39 33 1234 56789'],
        ] as const
      ).map(([kind, phone]): (typeof cases)[number] => [
        `a phone that cannot receive texts: ${kind}`,
        () => ({ name: 'Ana', partySize: 2, phone }),
        'This number cannot receive text messages; give a mobile number.',
      ]),
      ['an invalid email', () => ({ ...base(), email: 'not-an-email' }), /email/],
      ['neither email nor phone', () => ({ name: 'Ana', partySize: 2 }), 'A queue party needs an email or a phone number.'],
      ['an unknown field', () => ({ ...base(), vip: true }), /vip/],
    ];

    it.each(cases)('%s', async (_label, body, message) => {
      const before = await activeEntries(t, owner, v.id);
      const mails = (await messages(t, owner, v.id)).length;
      for (const res of [await deskJoin(t, owner, v.id, body()), await publicJoin(t, v.slug, body())]) {
        expect(refusal(res)).toEqual({ status: 400, code: 'VALIDATION' });
        if (typeof message === 'string') expect(errorOf(res).message).toBe(message);
        else expect(JSON.stringify(errorOf(res))).toMatch(message);
      }
      expect(await activeEntries(t, owner, v.id)).toEqual(before);
      expect(await messages(t, owner, v.id)).toHaveLength(mails);
    });

    it('the largest valid party (200) and an E.164 phone alone are accepted', async () => {
      await deskJoin(t, owner, v.id, { name: 'Big', partySize: 200, email: `big-${uniq()}@example.test` }).expect(201);
      const res = await deskJoin(t, owner, v.id, { name: 'Phone', partySize: 1, phone: '+13125550123' }).expect(201);
      expect((res.body as JoinBody).entry.partySize).toBe(1);
    });

    it.each([
      ['a US number (fixed line or mobile: the plan does not tell them apart), national', '(312) 555-0144'],
      ['a UK mobile', '+44 7911 123456'],
      ['a German mobile', '+49 1512 3456789'],
      ['a UK personal number (070)', '+44 70 1234 5678'],
      ['a UK VoIP number (056)', '+44 56 1234 5678'],
    ])('a phone that can receive texts is accepted at the desk: %s', async (_kind, phone) => {
      await deskJoin(t, owner, v.id, { name: 'Texts', partySize: 2, phone }).expect(201);
    });

    it('the public join texts only numbers of the venue’s country: one from abroad is refused, and nothing is saved or sent', async () => {
      await publicJoin(t, v.slug, { name: 'Local', partySize: 2, phone: '(312) 555-0177' }).expect(201);
      await publicJoin(t, v.slug, { name: 'Local, international form', partySize: 2, phone: '+1 415 555 0178' }).expect(201);
      const before = await activeEntries(t, owner, v.id);
      const sent = (await messages(t, owner, v.id)).length;
      // A UK mobile; a Canadian number (+1, but not the venue's country); a number of an
      // international network (+882, no country), a favourite of SMS pumping; and each with an email too.
      for (const phone of ['+44 7911 123456', '+1 604 555 0100', '+882 1600 0000 0', '+49 1512 3456789']) {
        for (const body of [
          { name: 'Abroad', partySize: 2, phone },
          { name: 'Abroad', partySize: 2, phone, email: `abroad-${uniq()}@example.test` },
        ]) {
          const res = await publicJoin(t, v.slug, body);
          expect(refusal(res)).toEqual({ status: 400, code: 'VALIDATION' });
          expect(errorOf(res)).toMatchObject({
            message:
              'This queue’s public form takes only United States phone numbers; give an email address, or ask the host to add your number.',
            details: { field: 'phone' },
          });
        }
      }
      expect(await activeEntries(t, owner, v.id)).toEqual(before);
      expect(await messages(t, owner, v.id)).toHaveLength(sent);
      // The party the form turned away, added by the host.
      await deskJoin(t, owner, v.id, { name: 'Abroad', partySize: 2, phone: '+44 7911 123457' }).expect(201);
    });

    it('a venue with no country takes no phone numbers on its public form, and still takes them at the desk', async () => {
      const utc = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, timeZone: 'UTC', published: true });
      const res = await publicJoin(t, utc.slug, { name: 'Anywhere', partySize: 2, phone: '+13125550190' });
      expect(refusal(res)).toEqual({ status: 400, code: 'VALIDATION' });
      expect(errorOf(res).message).toBe(
        'This queue’s public form takes no phone numbers; give an email address, or ask the host to add your number.',
      );
      await publicJoin(t, utc.slug, { name: 'Anywhere', partySize: 2, email: `anywhere-${uniq()}@example.test` }).expect(201);
      await deskJoin(t, owner, utc.id, { name: 'Anywhere', partySize: 2, phone: '+13125550190' }).expect(201);
    });
  });

  describe('one active entry per contact per venue-day', () => {
    it('contacts are compared normalised: email case, phone in E.164', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const a = await joined(t, owner, v.id, { name: 'A', partySize: 2, email: 'Mixed.Case@Example.test' });
      const dupEmail = await deskJoin(t, owner, v.id, { name: 'A2', partySize: 2, email: 'mixed.case@example.TEST' });
      expect(errorOf(dupEmail).details).toEqual({ entryId: a.entry.id });
      const b = await joined(t, owner, v.id, { name: 'B', partySize: 2, phone: '+13125551234' });
      const dupPhone = await deskJoin(t, owner, v.id, { name: 'B2', partySize: 2, phone: '+13125551234' });
      expect(refusal(dupPhone)).toEqual({ status: 409, code: 'WAITLIST_DUPLICATE' });
      expect(errorOf(dupPhone).details).toEqual({ entryId: b.entry.id });
    });

    it('a contact is either of its channels: the same phone with another email is the same party', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const both = await joined(t, owner, v.id, {
        name: 'Both',
        partySize: 2,
        email: `both-${uniq()}@example.test`,
        phone: '+14155552671',
      });
      for (const again of [
        { name: 'Phone only', partySize: 2, phone: '+14155552671' },
        { name: 'Other email', partySize: 2, email: `other-${uniq()}@example.test`, phone: '+14155552671' },
      ]) {
        const res = await deskJoin(t, owner, v.id, again);
        expect(errorOf(res)).toEqual({
          code: 'WAITLIST_DUPLICATE',
          message: 'This contact is already in the queue for today.',
          details: { entryId: both.entry.id },
        });
      }
    });

    it('after leaving, the same contact may join again (a new entry at the end)', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const email = `leave-${uniq()}@example.test`;
      const a = await joined(t, owner, v.id, { name: 'A', partySize: 2, email });
      await joined(t, owner, v.id, party(2));
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${a.entry.id}/cancel`).set(owner.auth).expect(200);
      const again = await joined(t, owner, v.id, { name: 'A', partySize: 2, email });
      expect(again.entry.id).not.toBe(a.entry.id);
      expect(again.entry.queueSequence).toBeGreaterThan(a.entry.queueSequence);
    });

    it('a join counts the venue as it is now, not as the last join found it: a table added, the cap lowered, the clock moved', async () => {
      // Nothing of the venue may be carried from the last join (issue 18 tried a guess of it).
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER], tables: [{ label: 'T4', capacity: 4 }] });
      const position = async (partySize: number, email = `g-${uniq()}@example.test`): Promise<number> =>
        (await joined(t, owner, v.id, { name: 'G', partySize, email })).position;
      expect(await position(3)).toBe(1);
      expect(await position(2)).toBe(2);
      // With a 2-top, a party of 2 needs it, and the party of 3 ahead could not take it.
      await request(t.baseUrl).post(`/v1/venues/${v.id}/tables`).set(owner.auth).send({ label: 'T2', capacity: 2 }).expect(201);
      expect(await position(2)).toBe(2);
      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ queuePartyCap: 2 }).expect(200);
      expect(errorOf(await deskJoin(t, owner, v.id, party(3))).message).toBe('The queue accepts parties of at most 2.');
      // The next evening: another business date, where nobody is ahead, and the same email joins again.
      const email = `again-${uniq()}@example.test`;
      expect(await position(2, email)).toBe(3);
      await moveClock(t, owner, v.id, '2026-06-13T23:00:00.000Z');
      expect(await position(2, email)).toBe(1);
    });

    it('two concurrent joins with the same contact, 20 times: exactly one entry each time, the other WAITLIST_DUPLICATE', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER], published: true });
      const host = await addMember(t, v.id, owner, 'host');
      for (let round = 0; round < 20; round++) {
        const email = `race-${round}-${uniq()}@example.test`;
        const [x, y] = await Promise.all([
          deskJoin(t, host, v.id, { name: `Race ${round} desk`, partySize: 2, email }),
          publicJoin(t, v.slug, { name: `Race ${round} public`, partySize: 2, email: email.toUpperCase() }),
        ]);
        const answers = [x, y].sort((p, q) => p.status - q.status);
        expect(answers.map((r) => r.status)).toEqual([201, 409]);
        const [won, lost] = answers as [request.Response, request.Response];
        // The desk is told where the party stands; the anonymous public side is not (issue 13).
        const deskLost = lost === x;
        expect(errorOf(lost)).toEqual({
          code: 'WAITLIST_DUPLICATE',
          message: 'This contact is already in the queue for today.',
          details: deskLost ? { entryId: (won.body as JoinBody).entry.id } : {},
        });
      }
      const entries = await activeEntries(t, owner, v.id);
      expect(entries).toHaveLength(20);
      expect(new Set(entries.map((e) => e.name.replace(/ (desk|public)$/, ''))).size).toBe(20);
    });
  });

  describe('replays, the quote answer and the queueing email', () => {
    it('the same Idempotency-Key returns the same entry and quote with queueToken null: no second entry, no second email', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER], published: true });
      await joined(t, owner, v.id, party(2));
      const body = { name: 'Replay', partySize: 2, email: `Replay-${uniq()}@Example.test` };
      const key = `join-${uniq()}`;
      const first = await deskJoin(t, owner, v.id, body).set('Idempotency-Key', key).expect(201);
      const answer = first.body as JoinBody;
      expect(answer.queueToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(answer).toMatchObject({
        position: 2,
        ahead: 1,
        quotedWaitMinutes: 40,
        approx: true,
        quote: 'position 2 (1 ahead), quoted ~40 min (approx)',
      });
      const again = await deskJoin(t, owner, v.id, body).set('Idempotency-Key', key).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual({ ...answer, queueToken: null });
      const reused = await deskJoin(t, owner, v.id, { ...body, partySize: 3 }).set('Idempotency-Key', key);
      expect(refusal(reused)).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });

      expect((await activeEntries(t, owner, v.id)).filter((e) => e.name === 'Replay')).toHaveLength(1);
      const mails = (await messages(t, owner, v.id)).filter((m) => m.entryId === answer.entry.id);
      expect(mails).toHaveLength(1);

      // The public side replays the same way.
      const pub = { name: 'Public replay', partySize: 3, email: `pub-${uniq()}@example.test` };
      const pkey = `pub-${uniq()}`;
      const p1 = await publicJoin(t, v.slug, pub).set('Idempotency-Key', pkey).expect(201);
      const p2 = await publicJoin(t, v.slug, pub).set('Idempotency-Key', pkey).expect(201);
      expect(p2.body).toEqual({ ...(p1.body as JoinBody), queueToken: null });
      expect((await activeEntries(t, owner, v.id)).filter((e) => e.name === 'Public replay')).toHaveLength(1);
    });

    it('the answer carries the entry as API.md shapes it', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const res = await joined(t, owner, v.id, { name: 'Shape', partySize: 3, email: `shape-${uniq()}@example.test` });
      expect(Object.keys(res).sort()).toEqual([
        'ahead',
        'approx',
        'entry',
        // Added beside API.md's fields (docs/api-additions.md): whether the wait runs past the end of service.
        'pastServiceEnd',
        'position',
        'queueToken',
        'quote',
        'quotedWaitMinutes',
        'serviceEndsAt',
      ]);
      expect(res.entry).toEqual({
        id: expect.any(String),
        name: 'Shape',
        partySize: 3,
        status: 'waiting',
        receivedAt: FRIDAY_6PM,
        queueSequence: expect.any(Number),
        version: 1,
        businessDate: '2026-06-12',
      } satisfies Record<keyof EntryBody, unknown>);
    });

    it('the queueing email is recorded in the same transaction and states the join position once', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      await joined(t, owner, v.id, party(2));
      await joined(t, owner, v.id, { name: 'Phone only', partySize: 2, phone: '+13128675309' });
      const me = await joined(t, owner, v.id, { name: 'Dana', partySize: 2, email: 'Dana@Example.test' });
      const all = await messages(t, owner, v.id);
      // The phone-only party gets a text instead of an email; the others one email each.
      expect(all.map((m) => m.channel).sort()).toEqual(['email', 'email', 'sms']);
      const mails = all.filter((m) => m.channel === 'email');
      const mine = mails.find((m) => m.entryId === me.entry.id);
      expect(mine).toMatchObject({
        to: 'dana@example.test',
        template: 'queue-joined',
        status: 'recorded',
        subject: 'You are in the queue — The Test Kitchen',
        createdAt: FRIDAY_6PM,
      });
      const text = mine?.body ?? '';
      expect(text).toContain('Queue position when you joined: 3\n');
      expect(text.match(/position/gi)).toHaveLength(1);
      // With the zone: on the night clocks fall back, 1:30 AM happens twice.
      expect(text).toContain('(joined at 6:00 PM CDT)');
      expect(text).toContain('about 60 minutes');

      // Hosts do not read messages; managers and owners do.
      const host = await addMember(t, v.id, owner, 'host');
      const manager = await addMember(t, v.id, owner, 'manager');
      await request(t.baseUrl).get(`/v1/venues/${v.id}/messages`).set(host.auth).expect(403);
      expect(await messages(t, manager, v.id)).toHaveLength(3);
    });
  });

  describe('staff correction', () => {
    it('corrects name and party size with the current version: place kept, version bumped, history written', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const host = await addMember(t, v.id, owner, 'host');
      const a = await joined(t, host, v.id, { name: 'Jon', partySize: 2, email: `jon-${uniq()}@example.test` });
      const b = await joined(t, host, v.id, party(4));
      await moveClock(t, owner, v.id, '2026-06-12T23:10:00.000Z');
      const res = await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
        .set(host.auth)
        .send({ entryVersion: 1, name: 'John', partySize: 3 })
        .expect(200);
      expect((res.body as { entry: EntryBody }).entry).toEqual({ ...a.entry, name: 'John', partySize: 3, version: 2 });
      expect((await activeEntries(t, host, v.id)).map((e) => [e.id, e.position])).toEqual([
        [a.entry.id, 1],
        [b.entry.id, 2],
      ]);
      const history = (
        await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${a.entry.id}`).set(host.auth).expect(200)
      ).body as Array<{ from: string | null; to: string; reason: string | null; at: string; actor: string }>;
      // History is newest first.
      expect(history[0]).toMatchObject({
        from: 'waiting',
        to: 'waiting',
        reason: 'corrected name, partySize',
        at: '2026-06-12T23:10:00.000Z',
        actor: `staff:${host.userId}`,
      });

      // The old version is stale now.
      const stale = await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
        .set(host.auth)
        .send({ entryVersion: 1, name: 'Johnny' });
      expect(refusal(stale)).toEqual({ status: 409, code: 'WAITLIST_STALE' });
      expect(errorOf(stale).details).toEqual({ currentVersion: 2 });
    });

    it('checks the cap and the one-entry rule again, and keeps a contact', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const a = await joined(t, owner, v.id, { name: 'A', partySize: 2, email: `a-${uniq()}@example.test` });
      const bEmail = `b-${uniq()}@example.test`;
      const b = await joined(t, owner, v.id, { name: 'B', partySize: 2, email: bEmail });
      const patch = (body: Record<string, unknown>): request.Test =>
        request(t.baseUrl)
          .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
          .set(owner.auth)
          .send({ entryVersion: 1, ...body });

      const cap = await patch({ partySize: 9 });
      expect(errorOf(cap)).toMatchObject({ code: 'VALIDATION', message: 'The queue accepts parties of at most 8.' });
      const dup = await patch({ email: bEmail.toUpperCase() });
      expect(errorOf(dup)).toEqual({
        code: 'WAITLIST_DUPLICATE',
        message: 'This contact is already in the queue for today.',
        details: { entryId: b.entry.id },
      });
      const none = await patch({ email: null });
      expect(errorOf(none)).toMatchObject({ code: 'VALIDATION', message: 'A queue party needs an email or a phone number.' });
      expect(refusal(await patch({ phone: '555-0100' }))).toEqual({ status: 400, code: 'VALIDATION' });
      expect(refusal(await patch({ name: null }))).toEqual({ status: 400, code: 'VALIDATION' });
      expect(refusal(await patch({ partySize: '3' }))).toEqual({ status: 400, code: 'VALIDATION' });

      // Nothing changed by the refusals: version 1 still works, and moving to a phone is fine.
      const ok = await patch({ email: null, phone: '+13125550199' }).expect(200);
      expect((ok.body as { entry: EntryBody }).entry.version).toBe(2);
      // The freed email may now be used by someone else.
      await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/queue/${b.entry.id}`)
        .set(owner.auth)
        .send({ entryVersion: 1, name: 'B', partySize: 2 })
        .expect(200)
        .expect((r) => expect((r.body as { entry: EntryBody }).entry.version).toBe(1)); // nothing to change: no bump
    });

    it('a correction refuses a new phone that cannot receive texts, but keeps one stored before that rule', async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const a = await joined(t, owner, v.id, { name: 'Lan', partySize: 2, phone: '+13125550177' });
      const patch = (body: Record<string, unknown>): request.Test =>
        request(t.baseUrl)
          .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
          .set(owner.auth)
          .send({ entryVersion: 1, ...body });
      expect(errorOf(await patch({ phone: '+19005550123' }))).toMatchObject({
        code: 'VALIDATION',
        message: 'This number cannot receive text messages; give a mobile number.',
      });
      // A landline joined before the rule (written directly: the API no longer takes one) stays through
      // a correction of something else: the party is not refused for a number nobody changed.
      const landline = '+442079460958';
      await t.app
        .get<DataSource>(getDataSourceToken())
        .query(`UPDATE queue_entries SET phone = $2, contact_key = 'phone:' || $2 WHERE id = $1`, [a.entry.id, landline]);
      const ok = await patch({ partySize: 3 }).expect(200);
      expect((ok.body as { entry: EntryBody }).entry).toMatchObject({ partySize: 3, version: 2 });
    });

    it("an entry that left the queue is not corrected; another venue's entry is not found", async () => {
      const v = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const other = await sandboxVenue(t, owner, { clock: FRIDAY_6PM, windows: [DINNER] });
      const a = await joined(t, owner, v.id, party(2));
      const cancelled = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue/${a.entry.id}/cancel`)
        .set(owner.auth)
        .expect(200);
      const version = (cancelled.body as { entry: EntryBody }).entry.version;
      const res = await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
        .set(owner.auth)
        .send({ entryVersion: version, name: 'Late' });
      expect(refusal(res)).toEqual({ status: 409, code: 'WAITLIST_OFFER_CONFLICT' });
      const elsewhere = await request(t.baseUrl)
        .patch(`/v1/venues/${other.id}/queue/${a.entry.id}`)
        .set(owner.auth)
        .send({ entryVersion: version, name: 'Late' });
      expect(refusal(elsewhere)).toEqual({ status: 404, code: 'NOT_FOUND' });
    });
  });
});
