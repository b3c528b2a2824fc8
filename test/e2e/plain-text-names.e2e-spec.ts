import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import {
  activeEntries,
  deskJoin,
  errorOf,
  joined,
  messages,
  party,
  publicJoin,
  sandboxVenue,
  uniq,
  type JoinBody,
  type Sandbox,
} from '../support/restaurant.js';

/**
 * Security review: an anonymous public join named "Bob\n\nYour table is ready. Confirm at …" wrote
 * its own lines into the venue's email that starts "Hello {name},", and names with terminal escapes
 * or bidi overrides reached the board, the CSV and the emails. Every name the API takes is one line
 * of plain text; free-text notes keep their line breaks and tabs but nothing else invisible.
 */

const PHISHING = 'Bob\n\nYour table is ready. Confirm at http://evil.example/pay';

interface Field {
  field: string;
  message: string;
}
const fieldsOf = (res: request.Response): Field[] => (errorOf(res).details as { fields?: Field[] }).fields ?? [];

describe('names are one line of plain text; notes keep line breaks but no hidden controls', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'plain-text');
    v = await sandboxVenue(t, owner, {
      clock: '2026-10-09T23:00:00.000Z',
      tables: [{ label: 'T1', capacity: 4 }],
      published: true,
    });
  });
  afterAll(async () => t.close());

  it('refuses the phishing name on the public and the desk join, naming the field; nothing is queued or emailed', async () => {
    const before = (await messages(t, owner, v.id)).length;
    for (const res of [
      await publicJoin(t, v.slug, { ...party(2), name: PHISHING }),
      await deskJoin(t, owner, v.id, { ...party(2), name: PHISHING }),
    ]) {
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({
        code: 'VALIDATION',
        message: 'Name must be a single line: line breaks are not allowed',
      });
      expect(fieldsOf(res)[0]?.field).toBe('name');
    }
    expect(await activeEntries(t, owner, v.id)).toEqual([]);
    expect(await messages(t, owner, v.id)).toHaveLength(before);
  });

  it.each([
    ['a carriage return', 'Bob\rSmith', /single line/],
    ['a Unicode line separator', 'Bob\u2028Smith', /single line/],
    ['NEL (U+0085)', 'Bob\u0085Smith', /single line/],
    ['a tab', 'Bob\tSmith', /control characters/],
    ['BEL and an ANSI escape', 'Bob\u0007\u001b[31m', /control characters/],
    ['DEL', 'Bob\u007f', /control characters/],
    ['a right-to-left override', 'Bob\u202Egnp.exe', /text-direction/],
    ['a left-to-right embedding', '\u202ABob\u202C', /text-direction/],
    ['a directional isolate', 'Bob \u2067evil\u2069', /text-direction/],
    ['a right-to-left mark', 'Bob\u200F', /text-direction/],
  ])('refuses a public join name with %s', async (_what, name, message) => {
    const res = await publicJoin(t, v.slug, { ...party(2), name });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION');
    expect(errorOf(res).message).toMatch(message);
    expect(fieldsOf(res)[0]?.field).toBe('name');
  });

  it.each([
    ['accents, an apostrophe and a hyphen', "Zoë O'Brien-Núñez"],
    ['Vietnamese', 'Nguyễn Văn Anh'],
    ['CJK', '山田 太郎'],
    ['Arabic', 'محمد الأحمد'],
    ['Hebrew', 'שרה כהן'],
    ['Persian with a zero-width non-joiner', 'مهسا می‌خواهد'],
    ['emoji, a family joined by ZWJ', 'Ada 👨‍👩‍👧‍👦 🎂'],
  ])('accepts a name with %s, stored and emailed as typed', async (_what, name) => {
    const res = await publicJoin(t, v.slug, { ...party(2), name }).expect(201);
    const entry = (res.body as JoinBody).entry;
    expect(entry.name).toBe(name);
    const email = (await messages(t, owner, v.id)).find((m) => m.entryId === entry.id && m.template === 'queue-joined');
    expect(email?.body.split('\n')[0]).toBe(`Hello ${name},`);
  });

  it('refuses line breaks and hidden controls in every other name the API takes, each naming its field', async () => {
    const p = await joined(t, owner, v.id, party(2));
    const api = request(t.baseUrl);
    const cases: Array<[string, () => request.Test]> = [
      [
        'name',
        () =>
          api
            .patch(`/v1/venues/${v.id}/queue/${p.entry.id}`)
            .set(owner.auth)
            .send({ entryVersion: p.entry.version, name: PHISHING }),
      ],
      [
        'name',
        () =>
          api
            .post(`/v1/venues/${v.id}/reservations`)
            .set(owner.auth)
            .send({ ...party(2), name: 'Bob\u202Eevil' }),
      ],
      [
        'name',
        () =>
          api
            .post(`/v1/venues/${v.id}/members`)
            .set(owner.auth)
            .send({ email: `m-${uniq()}@example.test`, password: 'a long password', role: 'host', name: 'Host\u001b[2J' }),
      ],
      [
        'name',
        () =>
          api
            .post('/v1/venues')
            .set(owner.auth)
            .send({ slug: `pt-${uniq()}`, name: 'Cafe\nConfirm at http://evil.example', timeZone: 'UTC', preset: 'restaurant' }),
      ],
      ['name', () => api.patch(`/v1/venues/${v.id}`).set(owner.auth).send({ name: 'Cafe\u2066x' })],
      ['label', () => api.post(`/v1/venues/${v.id}/tables`).set(owner.auth).send({ label: 'T9\n', capacity: 2 })],
      ['label', () => api.patch(`/v1/venues/${v.id}/tables/${v.tableIds['T1']}`).set(owner.auth).send({ label: 'T\u00071' })],
      [
        'decisions.reviewer',
        () =>
          api
            .patch(`/v1/venues/${v.id}`)
            .set(owner.auth)
            .send({ decisions: { reviewer: 'Ana\nBo' } }),
      ],
    ];
    for (const [field, send] of cases) {
      const res = await send();
      expect([res.status, errorOf(res)?.code, fieldsOf(res)[0]?.field]).toEqual([400, 'VALIDATION', field]);
      // Refused for its text, not for anything else in the body.
      expect(errorOf(res).message).toMatch(/single line|control characters|text-direction/);
    }
    // Nothing was changed: the party, the venue and the table keep their names.
    expect((await activeEntries(t, owner, v.id)).find((e) => e.id === p.entry.id)?.name).toBe(p.entry.name);
    const venue = (await api.get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as { name: string };
    expect(venue.name).toBe('The Test Kitchen');
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B'],
    ['a word joiner', '\u2060'],
    ['a zero-width joiner alone', '\u200D'],
    ['Hangul fillers', '\u3164\u3164'],
    ['the blank Braille pattern', '\u2800\u2800'],
    ['a soft hyphen', '\u00AD'],
    ['tag characters', '\u{E0041}\u{E0042}'],
    ['combining accents with nothing under them', '\u0301\u0301'],
    ['a variation selector and spaces', ' \uFE0F '],
  ])('refuses a name made only of %s: it shows nothing a host can read out', async (_what, name) => {
    for (const res of [
      await publicJoin(t, v.slug, { ...party(2), name }),
      await deskJoin(t, owner, v.id, { ...party(2), name }),
    ]) {
      expect([res.status, errorOf(res).code, fieldsOf(res)[0]?.field]).toEqual([400, 'VALIDATION', 'name']);
      expect(errorOf(res).message).toBe('Name must not be blank');
    }
  });

  it.each([
    ['Korean', '김민준'],
    ['Thai, with its combining vowels', 'สมชาย ใจดี'],
    ['Hindi, with its combining signs', 'अनुष्का'],
    ['the flag of England (tag characters)', 'Ada 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'],
  ])('accepts a name in %s', async (_what, name) => {
    const res = await publicJoin(t, v.slug, { ...party(2), name }).expect(201);
    expect((res.body as JoinBody).entry.name).toBe(name);
  });

  it('refuses a blank or invisible name everywhere else a name is taken, each naming its field', async () => {
    const p = await joined(t, owner, v.id, party(2));
    const api = request(t.baseUrl);
    const cases: Array<[string, () => request.Test]> = [
      [
        'name',
        () =>
          api
            .patch(`/v1/venues/${v.id}/queue/${p.entry.id}`)
            .set(owner.auth)
            .send({ entryVersion: p.entry.version, name: '\u200B' }),
      ],
      [
        'name',
        () =>
          api
            .post(`/v1/venues/${v.id}/reservations`)
            .set(owner.auth)
            .send({ ...party(2), name: '   ' }),
      ],
      [
        'name',
        () =>
          api
            .post(`/v1/venues/${v.id}/reservations`)
            .set(owner.auth)
            .send({ ...party(2), name: '\u3164' }),
      ],
      [
        'name',
        () =>
          api
            .post(`/v1/venues/${v.id}/members`)
            .set(owner.auth)
            .send({ email: `m-${uniq()}@example.test`, password: 'a long password', role: 'host', name: '   ' }),
      ],
      [
        'name',
        () =>
          api
            .post('/v1/venues')
            .set(owner.auth)
            .send({ slug: `pt-${uniq()}`, name: '\u2800', timeZone: 'UTC', preset: 'restaurant' }),
      ],
      ['name', () => api.patch(`/v1/venues/${v.id}`).set(owner.auth).send({ name: ' ' })],
      ['label', () => api.post(`/v1/venues/${v.id}/tables`).set(owner.auth).send({ label: '\u200B', capacity: 2 })],
      ['label', () => api.patch(`/v1/venues/${v.id}/tables/${v.tableIds['T1']}`).set(owner.auth).send({ label: '\u2060' })],
      [
        'decisions.reviewer',
        () =>
          api
            .patch(`/v1/venues/${v.id}`)
            .set(owner.auth)
            .send({ decisions: { reviewer: '\u3164' } }),
      ],
    ];
    // The message names the field plainly; `fields[].field` keeps the raw (dotted) name.
    const plain: Record<string, string> = { name: 'Name', label: 'Label', 'decisions.reviewer': 'Reviewer' };
    for (const [field, send] of cases) {
      const res = await send();
      expect([res.status, errorOf(res)?.code, fieldsOf(res)[0]?.field, errorOf(res)?.message]).toEqual([
        400,
        'VALIDATION',
        field,
        `${plain[field] ?? field} must not be blank`,
      ]);
    }
    const venue = (await api.get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as { name: string };
    expect(venue.name).toBe('The Test Kitchen');
  });

  it.each([
    ['a quoted local part with a line break', '"a\r\nbcc: evil@evil.example"@example.com'],
    ['a quoted local part with a comma', '"a,victim@evil.example"@example.com'],
    ['a quoted local part with BEL, which the mailer drops (it would mail xy@example.com)', '"x\u0007y"@example.com'],
    ['a right-to-left override', '\u202Emoc.live@example.com'],
    ['a zero-width space in the local part', 'vic\u200Btim@example.com'],
    ['a zero-width space in the domain', 'victim@exam\u200Bple.com'],
    ['a line separator', 'a\u2028b@example.com'],
    ['a soft hyphen', 'vic\u00ADtim@example.com'],
  ])('refuses an email address with %s, wherever an email is taken', async (_what, email) => {
    const p = await joined(t, owner, v.id, party(2));
    const api = request(t.baseUrl);
    for (const res of [
      await publicJoin(t, v.slug, { ...party(2), email }),
      await deskJoin(t, owner, v.id, { ...party(2), email }),
      await api.patch(`/v1/venues/${v.id}/queue/${p.entry.id}`).set(owner.auth).send({ entryVersion: p.entry.version, email }),
      await api
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ ...party(2), email }),
      await api.post(`/v1/venues/${v.id}/members`).set(owner.auth).send({ email, role: 'host' }),
    ]) {
      expect([res.status, errorOf(res).code, fieldsOf(res)[0]?.field]).toEqual([400, 'VALIDATION', 'email']);
      expect(errorOf(res).message).toBe('Email must be an email address, such as name@example.com');
    }
  });

  it.each([
    ['a plus tag and an apostrophe', "o'brien+queue@example.com"],
    ['accented letters', 'zoë.núñez@example.com'],
    ['a punycode domain', 'anna@xn--bcher-kva.example'],
  ])('accepts an email address with %s', async (_what, email) => {
    await publicJoin(t, v.slug, { ...party(2), email }).expect(201);
  });

  it('a note keeps its line breaks and tabs, but not other controls or text-direction characters', async () => {
    const p = await joined(t, owner, v.id, party(2));
    const put = (note: string): request.Test =>
      request(t.baseUrl).put(`/v1/venues/${v.id}/queue/${p.entry.id}/details`).set(owner.auth).send({ note, tags: [] });
    await put('Nut allergy\r\nTable by the window,\tnot the door').expect(200);
    for (const [note, message] of [
      ['Nut allergy\u001b[31m', /control characters/],
      ['Nut allergy\u202E', /text-direction/],
      ['Nut allergy\u2028by the window', /line or paragraph separators/],
    ] as const) {
      const res = await put(note);
      expect([res.status, errorOf(res).code, fieldsOf(res)[0]?.field]).toEqual([400, 'VALIDATION', 'note']);
      expect(errorOf(res).message).toMatch(message);
    }
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ decisions: { ruleChanges: 'Two lines:\n- first\n- second' } })
      .expect(200);
  });
});
