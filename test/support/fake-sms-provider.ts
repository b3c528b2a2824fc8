import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SMS_SID = 'AC00000000000000000000000000000001';
export const SMS_AUTH = 'fake-auth-token';
export const SMS_FROM = '+13125550100';

export interface Received {
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/**
 * How the fake answers one request: a status (201 takes the text), or `drop`, which reads the whole
 * request and closes the connection without an answer (the outcome is unknown to the sender).
 */
export type Answer = number | 'drop';

export interface FakeSmsProvider {
  server: Server;
  url: string;
  /** Every request, in the order the provider received it. */
  received: Received[];
  /** Texts the provider took (answered 2xx), in order. */
  taken: () => Received[];
  /** The most requests it was ever answering at once. */
  maxInFlight: () => number;
  /** Decides each answer; default: 201. A promise holds the answer until it settles (the text is then in flight). */
  answer: (form: URLSearchParams) => Answer | Promise<Answer>;
  /** How long it takes to answer each request. */
  delayMs: number;
  /** The settings that point the app at it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });

let sid = 0;

/** A loopback stand-in for a Twilio-compatible REST API, scripted per test. */
export async function fakeSmsProvider(): Promise<FakeSmsProvider> {
  let inFlight = 0;
  let most = 0;
  const taken: Received[] = [];
  const fake: FakeSmsProvider = {
    server: undefined as unknown as Server,
    url: '',
    received: [],
    taken: () => taken,
    maxInFlight: () => most,
    answer: () => 201,
    delayMs: 0,
    env: {},
    close: () =>
      new Promise<void>((resolve) => {
        fake.server.closeAllConnections();
        fake.server.close(() => resolve());
      }),
  };
  fake.server = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    void read(req).then(async (body) => {
      const form = new URLSearchParams(body);
      const r: Received = { path: req.url ?? '', authorization: req.headers.authorization, form };
      fake.received.push(r);
      const answer = await fake.answer(form);
      if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
      inFlight--;
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      if (answer >= 200 && answer < 300) taken.push(r);
      res.statusCode = answer;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          answer < 300
            ? { sid: `SM${++sid}`, status: 'queued', to: form.get('To') }
            : { code: 20000 + answer, message: `refused with ${answer}`, status: answer },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  fake.env = { SMS_URL: fake.url, SMS_ACCOUNT_SID: SMS_SID, SMS_AUTH_TOKEN: SMS_AUTH, SMS_FROM };
  return fake;
}
