import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  activeEntries,
  errorOf,
  exchange,
  freshAddress,
  joined,
  messages,
  moveClock,
  queueSession,
  refusal,
  sandboxVenue,
  uniq,
  type MessageBody,
  type Sandbox,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago, a Friday
const PUBLIC_URL = 'https://guests.example.test';
/** The GSM 03.38 basic character set and its extension table: a text of these alone is sent 160 characters a part. */
const GSM_7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€\f';

interface OfferBody {
  offer: { id: string; entryId: string; reservationId: string; state: string; expiresAt: string };
  reservation: { id: string; state: string };
}

/**
 * Every party hears from the venue on each channel it gave: the queueing and table-ready messages,
 * one announcement per offer that ends without a table and per departure, none on a replay, never a
 * queue token. The party's page reads its entry by token without spending it.
 */
describe('guest messages: texts, announcements, the queue status read, the messages list', () => {
  let t: TestApp;
  let owner: Staff;
  const tokens: string[] = [];
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ env: { PUBLIC_URL } });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(async () => {
    // No queue token (nor a session secret made from one) ever appears in a recorded message. The app
    // closes whatever this finds: a failed check must not leave its server and database open.
    try {
      const all: Array<{ body: string; subject: string; to_address: string }> = await ds().query(
        'SELECT body, subject, to_address FROM outbox_messages',
      );
      for (const token of tokens) {
        for (const m of all) expect(`${m.subject} ${m.body} ${m.to_address}`).not.toContain(token);
      }
    } finally {
      await t.close();
    }
  });

  const restaurant = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
    });

  const join = async (v: Sandbox, body: Record<string, unknown>) => {
    const j = await joined(t, owner, v.id, body);
    if (j.queueToken) tokens.push(j.queueToken);
    return j;
  };

  const offer = async (v: Sandbox, entryId: string, table: string): Promise<OfferBody> => {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === entryId);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    return res.body as OfferBody;
  };

  const of = async (v: Sandbox, entryId: string): Promise<MessageBody[]> =>
    (await messages(t, owner, v.id)).filter((m) => m.entryId === entryId);

  it('a phone-only party gets the queueing and table-ready texts, with the facts in short and the page without the token', async () => {
    const v = await restaurant();
    await join(v, { name: 'Ahead', partySize: 2, email: `a-${uniq()}@example.test` });
    const phone = await join(v, { name: 'Phone Only', partySize: 2, phone: '+13125550123' });
    const [joinedText] = await of(v, phone.entry.id);
    expect(joinedText).toMatchObject({
      channel: 'sms',
      to: '+13125550123',
      template: 'queue-joined',
      subject: '',
      status: 'recorded',
      createdAt: T0,
    });
    const text = joinedText?.body ?? '';
    expect(text).toContain('The Test Kitchen');
    // The join position once, as the email states it; the quoted wait as an estimate.
    expect(text).toContain('Queue position when you joined: 2.');
    expect(text.match(/position/gi)).toHaveLength(1);
    expect(text).toContain('6:00 PM');
    expect(text).toContain(`${PUBLIC_URL}/q/`);
    expect(text.length).toBeLessThanOrEqual(320);

    await offer(v, phone.entry.id, 'T1');
    const ready = (await of(v, phone.entry.id)).find((m) => m.template === 'table-ready');
    expect(ready).toMatchObject({ channel: 'sms', to: '+13125550123', status: 'recorded' });
    // The venue, the venue-local deadline, how to confirm.
    expect(ready?.body).toBe(
      `The Test Kitchen: your table is ready. Please confirm within 5 minutes, by 6:05 PM CDT, on your queue page (${PUBLIC_URL}/q/) or with the host.`,
    );
    // No email was recorded for a party that gave none.
    expect((await of(v, phone.entry.id)).every((m) => m.channel === 'sms')).toBe(true);
  });

  it('a party with both an email and a phone hears on both; emails carry the page too', async () => {
    const v = await restaurant();
    const both = await join(v, { name: 'Both', partySize: 2, email: `both-${uniq()}@example.test`, phone: '+13125550124' });
    const mine = await of(v, both.entry.id);
    expect(mine.map((m) => `${m.channel} ${m.template}`).sort()).toEqual(['email queue-joined', 'sms queue-joined']);
    expect(mine.find((m) => m.channel === 'email')?.body).toContain(`Your queue page: ${PUBLIC_URL}/q/`);
  });

  it('every text is in the SMS alphabet (GSM-7): a typographic dash or quote does not turn it into a dearer Unicode text', async () => {
    const v = await restaurant();
    await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ name: 'Joe’s Kitchen' }).expect(200);
    const p = await join(v, { name: 'Gus', partySize: 2, phone: '+13125550131' });
    const o = await offer(v, p.entry.id, 'T1');
    await moveClock(t, owner, v.id, o.offer.expiresAt);
    const texts = await of(v, p.entry.id);
    expect(texts.map((m) => m.template).sort()).toEqual(['offer-lapsed', 'queue-joined', 'table-ready']);
    // One character outside GSM-7 makes the whole text UCS-2: 70 characters a part instead of 160,
    // so the 163 characters of the lapse text cost three parts instead of two.
    for (const m of texts) expect([...m.body].filter((c) => !GSM_7.includes(c))).toEqual([]);
    expect(texts.find((m) => m.template === 'offer-lapsed')?.body).toBe(
      `Joe's Kitchen: The offer expired and its table was released. Nothing lost - the place was kept; watch for the next offer. Your queue page: ${PUBLIC_URL}/q/`,
    );
  });

  it('withdraw and lapse each add exactly one announcement (per channel), a kept place never re-promised, none on a replay', async () => {
    const v = await restaurant();
    const p = await join(v, { name: 'Wanda', partySize: 2, phone: '+13125550125' });

    // Withdrawn by the host, replayed with the same key and repeated without one: one announcement.
    const first = await offer(v, p.entry.id, 'T1');
    const key = `withdraw-${uniq()}`;
    for (let i = 0; i < 2; i++)
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers/${first.offer.id}/withdraw`)
        .set(owner.auth)
        .set('Idempotency-Key', key)
        .send({})
        .expect(200);
    const again = await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${first.offer.id}/withdraw`).set(owner.auth).send({});
    expect(refusal(again)).toEqual({ status: 409, code: 'WAITLIST_OFFER_CONFLICT' });
    const withdrawn = (await of(v, p.entry.id)).filter((m) => m.template === 'offer-withdrawn');
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]?.body).toBe(
      `The Test Kitchen: The host withdrew the table offered to you; you keep your place in the queue. Your queue page: ${PUBLIC_URL}/q/`,
    );
    expect(withdrawn[0]?.body).not.toMatch(/position|\d+(st|nd|rd|th)? in (the )?(queue|line)/i);

    // Lapsed: the clock passes the deadline (the sweep runs), then a hand sweep finds nothing more.
    const second = await offer(v, p.entry.id, 'T1');
    await moveClock(t, owner, v.id, second.offer.expiresAt);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/sweeps`).set(owner.auth).send({}).expect(200);
    await moveClock(t, owner, v.id, new Date(Date.parse(second.offer.expiresAt) + 60_000).toISOString());
    const lapsed = (await of(v, p.entry.id)).filter((m) => m.template === 'offer-lapsed');
    expect(lapsed).toHaveLength(1);
    expect(lapsed[0]?.body).toBe(
      `The Test Kitchen: The offer expired and its table was released. Nothing lost - the place was kept; watch for the next offer. Your queue page: ${PUBLIC_URL}/q/`,
    );
    expect((await activeEntries(t, owner, v.id)).find((e) => e.id === p.entry.id)?.status).toBe('waiting');
    expect((await of(v, p.entry.id)).map((m) => m.template).sort()).toEqual([
      'offer-lapsed',
      'offer-withdrawn',
      'queue-joined',
      'table-ready',
      'table-ready',
    ]);
  });

  it('a party that leaves, or is cancelled by the host, gets one confirmation; repeating changes nothing', async () => {
    const v = await restaurant();
    const email = `leaver-${uniq()}@example.test`;
    const leaver = await join(v, { name: 'Leaver', partySize: 2, email });
    const offered = await join(v, { name: 'Offered', partySize: 2, phone: '+13125550126' });
    await offer(v, offered.entry.id, 'T1');

    // The party leaves through its own session, which ends with the entry; the host's repeat of the
    // cancellation changes nothing and sends nothing.
    const s = (await exchange(t, leaver.queueToken ?? '').expect(201)).body as { sessionToken: string };
    tokens.push(s.sessionToken);
    await request(t.baseUrl).post('/v1/queue-session/leave').set(queueSession(s.sessionToken)).send({}).expect(200);
    await request(t.baseUrl).post('/v1/queue-session/leave').set(queueSession(s.sessionToken)).send({}).expect(401);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${leaver.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
    const left = (await of(v, leaver.entry.id)).filter((m) => m.template === 'queue-left');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ channel: 'email', to: email, subject: 'You have left the queue — The Test Kitchen' });
    expect(left[0]?.body).toContain('This confirms that you are no longer in the queue at The Test Kitchen');

    // The host cancels a party holding an offer: its hold is released and it hears once, that the
    // host removed it (it did not leave by itself).
    for (let i = 0; i < 2; i++)
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${offered.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
    const cancelled = (await of(v, offered.entry.id)).filter((m) => m.template === 'queue-removed');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ channel: 'sms', to: '+13125550126' });
    expect((await of(v, offered.entry.id)).filter((m) => m.template === 'offer-withdrawn')).toHaveLength(0);
  });

  it('POST /v1/queue-status reads the entry by its token without spending it; the token still opens a session once', async () => {
    const v = await restaurant();
    const p = await join(v, { name: 'Reader', partySize: 2, email: `r-${uniq()}@example.test` });
    const token = p.queueToken ?? '';
    const status = (from = freshAddress()) =>
      request(t.baseUrl).post('/v1/queue-status').set('X-Forwarded-For', from).send({ token });

    const first = (await status().expect(200)).body as Record<string, unknown>;
    expect(first).toMatchObject({
      venue: { name: 'The Test Kitchen', timeZone: 'America/Chicago', sandbox: true },
      now: T0,
      entry: { id: p.entry.id, name: 'Reader', partySize: 2, status: 'waiting' },
      position: 1,
      ahead: 0,
      offer: null,
    });
    // An offer shows up in the next read, with its deadline.
    const o = await offer(v, p.entry.id, 'T1');
    const offered = (await status().expect(200)).body as { entry: { status: string }; offer: { id: string; expiresAt: string } };
    expect(offered.entry.status).toBe('offered');
    expect(offered.offer).toMatchObject({ id: o.offer.id, expiresAt: o.offer.expiresAt });

    // Reading did not spend it: the exchange works, once; after that the token reads nothing.
    await exchange(t, token).expect(201);
    expect(refusal(await status())).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(refusal(await exchange(t, token))).toEqual({ status: 401, code: 'TOKEN_INVALID' });

    // Unknown and malformed tokens: the same generic answer; wrong guesses are limited per address.
    const wrong = await request(t.baseUrl)
      .post('/v1/queue-status')
      .send({ token: 'x'.repeat(43) });
    expect(refusal(wrong)).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(errorOf(wrong).message).toBe('This token is not valid. Ask the venue for a fresh one.');
    const from = freshAddress();
    const answers: number[] = [];
    for (let i = 0; i < 12; i++)
      answers.push(
        (
          await request(t.baseUrl)
            .post('/v1/queue-status')
            .set('X-Forwarded-For', from)
            .send({ token: `${i}`.padEnd(43, 'y') })
        ).status,
      );
    expect(answers.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });

  it('GET …/messages lists messages recorded at one instant of a practice clock in the order they were recorded', async () => {
    // A sandbox venue's clock stands still between moves: a rehearsed evening records many messages
    // at one instant, and the list (and its pages) must still read in the order they happened.
    const v = await restaurant();
    const parties = [];
    for (let i = 0; i < 8; i++)
      parties.push(await join(v, { name: `Same instant ${i}`, partySize: 2, phone: `+1312555014${i}` }));
    const first = parties[0]?.entry.id ?? '';
    const o = await offer(v, first, 'T1');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${o.offer.id}/withdraw`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${first}/cancel`).set(owner.auth).send({}).expect(200);

    const all = await messages(t, owner, v.id);
    expect(new Set(all.map((m) => m.createdAt))).toEqual(new Set([T0]));
    const joinedAt = all
      .filter((m) => m.template === 'queue-joined')
      .map((m) => /position when you joined: (\d+)/.exec(m.body)?.[1]);
    expect(joinedAt).toEqual(['8', '7', '6', '5', '4', '3', '2', '1']);
    expect(all.filter((m) => m.entryId === first).map((m) => m.template)).toEqual([
      'queue-removed',
      'offer-withdrawn',
      'table-ready',
      'queue-joined',
    ]);
    // Page by page, the same order.
    const paged: string[] = [];
    for (let next: string | null = `/v1/venues/${v.id}/messages?limit=3`; next;) {
      const res = await request(t.baseUrl).get(next).set(owner.auth).expect(200);
      paged.push(...(res.body as MessageBody[]).map((m) => m.id));
      const link = res.headers['link'] as string | undefined;
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
    }
    expect(paged).toEqual(all.map((m) => m.id));
  });

  it('GET …/messages: newest first, in pages with a Link header, filtered by template, channel and recipient', async () => {
    const v = await restaurant();
    const phones = ['+13125550130', '+13125550131', '+13125550132'];
    for (const [i, phone] of phones.entries()) {
      await join(v, { name: `P${i}`, partySize: 2, phone, email: `p${i}-${uniq()}@example.test` });
      await moveClock(t, owner, v.id, new Date(Date.parse(T0) + (i + 1) * 60_000).toISOString());
    }
    const all = await messages(t, owner, v.id);
    expect(all).toHaveLength(6);
    const stamps = all.map((m) => m.createdAt);
    expect([...stamps].sort().reverse()).toEqual(stamps);

    // Two at a time: three pages, following the Link header, nothing skipped or repeated.
    const seen: string[] = [];
    let next: string | null = `/v1/venues/${v.id}/messages?limit=2`;
    let pages = 0;
    while (next) {
      const res = await request(t.baseUrl).get(next).set(owner.auth).expect(200);
      const body = res.body as MessageBody[];
      expect(Array.isArray(body)).toBe(true);
      seen.push(...body.map((m) => m.id));
      pages++;
      const link = res.headers['link'] as string | undefined;
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((m) => m.id));

    const texts = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?channel=sms`).set(owner.auth).expect(200))
      .body as MessageBody[];
    expect(texts.map((m) => m.to)).toEqual([...phones].reverse());
    const toOne = (
      await request(t.baseUrl).get(`/v1/venues/${v.id}/messages`).query({ to: phones[1] }).set(owner.auth).expect(200)
    ).body as MessageBody[];
    expect(toOne.map((m) => [m.channel, m.to])).toEqual([['sms', phones[1]]]);
    // However the manager types the number (national, spaced, a `+` left unencoded in the address),
    // or the email (any case): the same messages, not a silent empty list.
    const toTyped = async (query: string): Promise<Array<[string, string]>> =>
      (
        (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?${query}`).set(owner.auth).expect(200)).body as MessageBody[]
      ).map((m) => [m.channel, m.to]);
    for (const typed of ['to=3125550131', 'to=(312)%20555-0131', 'to=+1%20312%20555%200131', 'to=+13125550131'])
      expect([typed, await toTyped(typed)]).toEqual([typed, [['sms', phones[1]]]]);
    const email = all.find((m) => m.channel === 'email' && m.to.startsWith('p1-'))?.to ?? '';
    expect(await toTyped(`to=${encodeURIComponent(email.toUpperCase())}`)).toEqual([['email', email]]);
    expect(await toTyped('to=5550131')).toEqual([]);
    const byTemplate = (
      await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?template=table-ready`).set(owner.auth).expect(200)
    ).body as MessageBody[];
    expect(byTemplate).toEqual([]);
    // A filtered page's next link keeps the filter.
    const filtered = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/messages?channel=email&limit=1`)
      .set(owner.auth)
      .expect(200);
    expect(filtered.headers['link']).toMatch(/channel=email/);

    for (const bad of ['limit=0', 'limit=501', 'limit=ten', 'channel=fax', 'before=nonsense'])
      expect(refusal(await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?${bad}`).set(owner.auth))).toEqual({
        status: 400,
        code: 'VALIDATION',
      });
    // The last page has no Link.
    const last = await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?limit=500`).set(owner.auth).expect(200);
    expect(last.headers['link']).toBeUndefined();
  });

  it('GET …/messages: an empty filter (to=, status=, channel=, template=, or only spaces) is no filter', async () => {
    const v = await restaurant();
    await join(v, { name: 'Empty', partySize: 2, phone: '+13125550150', email: `empty-${uniq()}@example.test` });
    const all = (await messages(t, owner, v.id)).map((m) => m.id);
    expect(all).toHaveLength(2);
    // A form sent with its search field left empty (or only spaces): the whole list, not nothing.
    const texts = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?channel=sms`).set(owner.auth).expect(200))
      .body as MessageBody[];
    expect(texts).toHaveLength(1);
    for (const [query, expected] of [
      ['to=', all],
      ['to=%20%20', all],
      ['to=&channel=sms', texts.map((m) => m.id)],
      // Every filter of the list, sent empty, is no filter either (each listed nothing, or answered 400).
      ['template=', all],
      ['channel=', all],
      ['status=&channel=%20', all],
      ['template=&status=&channel=sms&to=', texts.map((m) => m.id)],
    ] as const) {
      const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?${query}`).set(owner.auth).expect(200);
      expect([query, (res.body as MessageBody[]).map((m) => m.id)]).toEqual([query, expected]);
    }
  });

  it('GET …/messages?to= longer than any phone number or email address is refused in plain words', async () => {
    const v = await restaurant();
    // Longer than any email address or phone number: a 400 a manager reads at a glance, naming the field.
    const res = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/messages`)
      .query({ to: 'x'.repeat(321) })
      .set(owner.auth);
    expect(refusal(res)).toEqual({ status: 400, code: 'VALIDATION' });
    const error = errorOf(res) as { message: string; details?: { fields?: Array<{ field: string; message: string }> } };
    expect(error.message).toBe('That is too long for a phone number or email address: 320 characters at most.');
    expect(error.details?.fields).toEqual([{ field: 'to', message: error.message }]);
    // 320 is still a search (it matches nothing here).
    await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/messages`)
      .query({ to: 'x'.repeat(320) })
      .set(owner.auth)
      .expect(200);
  });

  it('board rows carry reach: ok while nothing failed', async () => {
    const v = await restaurant();
    const p = await join(v, { name: 'Reach', partySize: 2, phone: '+13125550140' });
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      queue: Array<{ id: string; reach: string }>;
      queuePage: string | null;
    };
    expect(board.queue.find((e) => e.id === p.entry.id)?.reach).toBe('ok');
    expect(board.queuePage).toBe(`${PUBLIC_URL}/q/`);
    const queue = (await activeEntries(t, owner, v.id)) as Array<{ id: string; reach?: string }>;
    expect(queue.find((e) => e.id === p.entry.id)?.reach).toBe('ok');
  });
});
