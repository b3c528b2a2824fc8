import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Agent, request } from 'undici';
import { AppConfig } from '@hostboard/core';
import type { GuestChannel, OutgoingMessage } from './guest-channel.js';
import { connectionRefused, ProviderError } from './provider-error.js';

/** A provider that does not answer within this long is a failure (not retried: the text may have left). */
const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Texts through a provider with Twilio's REST API (Twilio itself, or a compatible one), when SMS_URL
 * is set: `POST {SMS_URL}/2010-04-01/Accounts/{SMS_ACCOUNT_SID}/Messages.json` with a form body
 * `To`, `From`, `Body` and HTTP Basic auth (account sid, auth token). A small adapter over undici
 * rather than the `twilio` package: one request shape, no extra dependency tree, and it works with
 * any compatible provider's base URL.
 */
@Injectable()
export class SmsAdapter implements GuestChannel, OnModuleDestroy {
  readonly channel = 'sms' as const;
  /** undici (about 1 MB of code) is loaded only by a process that sends texts: SMS_URL is set. */
  private readonly client?: Promise<{ agent: Agent; request: typeof request }>;

  constructor(private readonly config: AppConfig) {
    if (config.SMS_URL)
      this.client = import('undici').then((undici) => ({
        agent: new undici.Agent({ headersTimeout: PROVIDER_TIMEOUT_MS, bodyTimeout: PROVIDER_TIMEOUT_MS }),
        request: undici.request,
      }));
  }

  get configured(): boolean {
    return this.client !== undefined;
  }

  async send(m: OutgoingMessage): Promise<void> {
    const { SMS_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM } = this.config;
    if (!this.client || !SMS_URL || !SMS_ACCOUNT_SID || !SMS_AUTH_TOKEN || !SMS_FROM)
      throw new Error('no text provider is configured');
    const { agent, request } = await this.client;
    const url = new URL(`2010-04-01/Accounts/${encodeURIComponent(SMS_ACCOUNT_SID)}/Messages.json`, withSlash(SMS_URL));
    const answer = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Basic ${Buffer.from(`${SMS_ACCOUNT_SID}:${SMS_AUTH_TOKEN}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: m.to, From: SMS_FROM, Body: m.body }).toString(),
    })
      .then(async (res) => ({ status: res.statusCode, text: await res.body.text() }))
      .catch((err: unknown) => {
        if (connectionRefused(err)) throw new ProviderError(`the provider refused the connection (${url.host})`, true);
        const unknown = unknownOutcome(err);
        throw unknown ? new ProviderError(unknown, false) : err;
      });
    const { status, text } = answer;
    if (status >= 200 && status < 300) return;
    // 429 and 5xx: the provider did not take it (Twilio answers 201 once it has), so it may be tried again.
    throw new ProviderError(providerReason(status, text), status === 429 || status >= 500);
  }

  async onModuleDestroy(): Promise<void> {
    await (await this.client)?.agent.close();
  }
}

const withSlash = (base: string): string => (base.endsWith('/') ? base : `${base}/`);

/** Twilio's error body is `{code, message, more_info, status}`; keep its words, bounded. */
export function providerReason(status: number, body: string): string {
  try {
    const e = JSON.parse(body) as { code?: unknown; message?: unknown };
    const code = typeof e.code === 'number' || typeof e.code === 'string' ? ` (code ${e.code})` : '';
    if (typeof e.message === 'string') return `${status}${code}: ${e.message}`.slice(0, 500);
  } catch {
    // Not JSON: the status and the start of the text.
  }
  return `${status}: ${body.slice(0, 200)}`;
}

/** No answer in time: the request went out, so the provider may have taken it. */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** The connection closed after the request went out, before the answer. */
const LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * A hand-over whose outcome is unknown, in words for the manager who reads the message list: the
 * HTTP client's own ("Headers Timeout Error", "other side closed") said nothing about whether the
 * guest has the text, and it may well: it is `failed` only because it is never sent twice. Null for
 * any other error.
 */
export function unknownOutcome(err: unknown): string | null {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return null;
  const happened = TIMEOUTS.has(code)
    ? `did not answer within ${PROVIDER_TIMEOUT_MS / 1000} seconds`
    : LOST.has(code)
      ? 'closed the connection without answering'
      : null;
  return (
    happened && `the text provider ${happened}: the guest may have the text; it is not sent again, so it cannot arrive twice`
  );
}
