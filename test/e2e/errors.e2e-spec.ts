import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

describe('error envelope', () => {
  let t: TestApp;
  let owner: Staff;
  const venue = { slug: 'err-venue', name: 'Errors', timeZone: 'America/Chicago', preset: 'restaurant' };

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  const expectEnvelope = (body: unknown, code: string): void => {
    expect(body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  };

  it('refuses an unknown field with VALIDATION', async () => {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ ...venue, colour: 'red' })
      .expect(400);
    expectEnvelope(res.body, 'VALIDATION');
    expect(JSON.stringify(res.body)).toContain('colour');
  });

  it('refuses a wrong type with VALIDATION, without coercing', async () => {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ ...venue, preset: 'workshop', poolCapacity: '12' })
      .expect(400);
    expectEnvelope(res.body, 'VALIDATION');
    const again = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ ...venue, sandbox: 'true' })
      .expect(400);
    expectEnvelope(again.body, 'VALIDATION');
  });

  it('names the type a wrong-typed value needs, not the range checks it also fails', async () => {
    const created = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ ...venue, slug: 'err-types' })
      .expect(201);
    const id = (created.body as { id: string }).id;
    const join = await request(t.baseUrl)
      .post(`/v1/venues/${id}/queue`)
      .set(owner.auth)
      .send({ name: 'Typed', partySize: '2' })
      .expect(400);
    expect(join.body).toMatchObject({
      error: {
        code: 'VALIDATION',
        message: 'Party size must be an integer number',
        details: { fields: [{ field: 'partySize' }] },
      },
    });
    // An address that is not one is told so in words, not as a type.
    const email = await request(t.baseUrl)
      .post(`/v1/venues/${id}/queue`)
      .set(owner.auth)
      .send({ name: 'Typed', partySize: 2, email: 'ada.example.test' })
      .expect(400);
    expect(email.body).toMatchObject({
      error: { code: 'VALIDATION', message: 'Email must be an email address, such as name@example.com' },
    });
    for (const limit of ['-1', '1e2']) {
      const page = await request(t.baseUrl).get(`/v1/venues/${id}/history?limit=${limit}`).set(owner.auth).expect(400);
      expect(page.body).toMatchObject({ error: { code: 'VALIDATION', message: 'Limit must be an integer number' } });
    }
  });

  it('refuses text that is not well-formed Unicode with VALIDATION, not a 500 from a validator', async () => {
    // A lone surrogate, written as JSON's escape so it reaches the server as such. validator's
    // isEmail calls encodeURI, which throws on it; the fuzz found this as a 500.
    const raw = '{"name":"Ana","partySize":2,"email":"a\\ud800@example.com"}';
    const res = await request(t.baseUrl)
      .post('/v1/public/venues/any-venue/queue')
      .set('content-type', 'application/json')
      .send(raw)
      .expect(400);
    expectEnvelope(res.body, 'VALIDATION');
    expect((res.body as { error: { message: string; details: { field: string } } }).error).toMatchObject({
      message: 'Text must be valid Unicode.',
      details: { field: 'email' },
    });
  });

  it('refuses an oversized body with VALIDATION', async () => {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ ...venue, name: 'x'.repeat(70 * 1024) })
      .expect(400);
    expectEnvelope(res.body, 'VALIDATION');
    expect((res.body as { error: { message: string } }).error.message).toBe('The request body is larger than 64 KB.');
  });

  it('refuses a body that is not JSON with VALIDATION', async () => {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Content-Type', 'application/json')
      .send('{"slug":')
      .expect(400);
    expectEnvelope(res.body, 'VALIDATION');
  });

  it('answers an unknown route with NOT_FOUND', async () => {
    const res = await request(t.baseUrl).get('/v1/no-such-thing').expect(404);
    expectEnvelope(res.body, 'NOT_FOUND');
  });

  it('answers a path with a malformed %-escape with VALIDATION and the headers of every answer, not the router’s own body', async () => {
    // A link cut short ('%E0%A4%A'): the router refused it before any hook ran, as {statusCode, code: "FST_ERR_BAD_URL", …}.
    for (const path of ['/v1/venues/%E0%A4%A', '/v1/public/venues/caf%C3/queue', '/q/%']) {
      const res = await request(t.baseUrl).get(path).expect(400);
      expectEnvelope(res.body, 'VALIDATION');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('answers an unexpected fault with 500 and a correlation id only', async () => {
    // A real fault, not a stub: the table the command writes has vanished under the running app.
    const ds = t.app.get<DataSource>(getDataSourceToken());
    await ds.query('ALTER TABLE venues RENAME TO venues_gone');
    try {
      const res = await request(t.baseUrl).post('/v1/venues').set(owner.auth).send(venue).expect(500);
      const body = res.body as { error: { code: string; message: string; details: { correlationId: string } } };
      expect(body).toEqual({
        error: { code: 'INTERNAL', message: 'Something went wrong on our side.', details: { correlationId: expect.any(String) } },
      });
      expect(body.error.details.correlationId).toBe(res.headers['x-request-id']);
      expect(res.text).not.toMatch(/venues|does not exist|stack|QueryFailed|\.ts:\d/i);
    } finally {
      await ds.query('ALTER TABLE venues_gone RENAME TO venues');
    }
  });
});
