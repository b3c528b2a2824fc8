import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { smtpCatcher, type SmtpCatcher } from '../support/smtp-catcher.js';
import { StaffAccountService } from '@hostboard/auth';
import { createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * Any signed-in user may open a venue and add members: the add answer and the pending list must not
 * tell that venue's manager whether an email already has an account elsewhere, nor that account's
 * name. An email with no account and one that has one (a password, or only another venue's unclaimed
 * invitation) get the same answer, but for the ids, the link and the times. Real HTTP.
 */

const fresh = (): string => `nobody-${randomBytes(4).toString('hex')}@example.test`;

/** The answer with what differs between any two invitations (ids, the link, the instant) blanked. */
function shape(body: Record<string, unknown>, email: string): unknown {
  const text = JSON.stringify(body)
    .split(email)
    .join('<email>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/[A-Za-z0-9_-]{43}/g, '<token>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
  return JSON.parse(text) as unknown;
}

/** An account with a password and a name of its holder's choosing (as the CLI makes one). */
async function account(t: TestApp, name: string): Promise<{ email: string }> {
  const email = fresh().replace('nobody', 'holder');
  await t.app
    .get(StaffAccountService)
    .ensureAccount({ email, password: `pw-${randomBytes(8).toString('hex')}`, name }, 'owner-created');
  return { email };
}

function suite(label: string, env: () => Record<string, string>): void {
  describe(`adding a member tells nothing about other accounts (${label})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ env: env() });
    });
    afterAll(() => t.close());

    const add = (venueId: string, by: Staff, body: Record<string, unknown>): request.Test =>
      request(t.baseUrl).post(`/v1/venues/${venueId}/members`).set(by.auth).send(body);

    it('an existing account, a pending one and a new email get the same answer and the same listing', async () => {
      // Someone with an account, and someone another venue invited (no password yet), both named.
      const holder = await account(t, 'Jane Holder');
      const pending = fresh();
      const otherOwner = await signUp(t, 'other-owner-2');
      const otherVenue = await createVenue(t, otherOwner);
      await add(otherVenue.id, otherOwner, { email: pending, role: 'host', name: 'Pat Pending' }).expect(201);

      const prober = await signUp(t, 'prober');
      const venue = await createVenue(t, prober);
      const nobody = fresh();
      const answers = [];
      for (const email of [nobody, holder.email, pending]) {
        const res = await add(venue.id, prober, { email, role: 'host', name: 'Typed Name' });
        answers.push({ status: res.status, body: shape(res.body as Record<string, unknown>, email) });
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      // The holder's own name is theirs: not shown to a venue they have not joined.
      const listed = (await request(t.baseUrl).get(`/v1/venues/${venue.id}/invitations`).set(prober.auth).expect(200))
        .body as Array<Record<string, unknown>>;
      const text = JSON.stringify(listed);
      expect(text).not.toContain('Jane Holder');
      expect(text).not.toContain('Pat Pending');
      const byEmail = (email: string): unknown => {
        const row = listed.find((i) => i['email'] === email);
        return row ? shape(row, email) : undefined;
      };
      expect(byEmail(holder.email)).toEqual(byEmail(nobody));
      expect(byEmail(pending)).toEqual(byEmail(nobody));
    });

    it('without a name: the email stands for it, whoever holds it', async () => {
      const holder = await account(t, 'Joe Named');
      const prober = await signUp(t, 'prober');
      const venue = await createVenue(t, prober);
      const nobody = fresh();
      const a = await add(venue.id, prober, { email: nobody, role: 'host' });
      const b = await add(venue.id, prober, { email: holder.email, role: 'host' });
      expect(shape(b.body as Record<string, unknown>, holder.email)).toEqual(shape(a.body as Record<string, unknown>, nobody));
      expect(JSON.stringify(b.body)).not.toContain('Joe Named');
    });

    it('with a password, an existing account is invited (the password unused) without its name shown', async () => {
      const holder = await account(t, 'Ann Private');
      const prober = await signUp(t, 'prober');
      const venue = await createVenue(t, prober);
      const res = await add(venue.id, prober, { email: holder.email, role: 'host', name: 'Typed', password: 'pw-typed-123' });
      expect(res.status).toBe(201);
      expect(JSON.stringify(res.body)).not.toContain('Ann Private');
    });
  });
}

suite('link shown in person', () => ({}));

let smtp: SmtpCatcher;
beforeAll(async () => {
  smtp = await smtpCatcher();
});
afterAll(() => smtp.close());
suite('link sent by email', () => ({ SMTP_URL: smtp.url, REDIS_URL: '' }));
