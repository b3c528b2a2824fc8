import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Agent, request } from 'undici';
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
  private readonly agent?: Agent;

  constructor(private readonly config: AppConfig) {
    if (config.SMS_URL) this.agent = new Agent({ headersTimeout: PROVIDER_TIMEOUT_MS, bodyTimeout: PROVIDER_TIMEOUT_MS });
  }

  get configured(): boolean {
    return this.agent !== undefined;
  }

  async send(m: OutgoingMessage): Promise<void> {
    const { SMS_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM } = this.config;
    if (!this.agent || !SMS_URL || !SMS_ACCOUNT_SID || !SMS_AUTH_TOKEN || !SMS_FROM)
      throw new Error('no text provider is configured');
    const url = new URL(`2010-04-01/Accounts/${encodeURIComponent(SMS_ACCOUNT_SID)}/Messages.json`, withSlash(SMS_URL));
    const res = await request(url, {
      method: 'POST',
      dispatcher: this.agent,
      headers: {
        authorization: `Basic ${Buffer.from(`${SMS_ACCOUNT_SID}:${SMS_AUTH_TOKEN}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: m.to, From: SMS_FROM, Body: m.body }).toString(),
    }).catch((err: unknown) => {
      throw connectionRefused(err) ? new ProviderError(`the provider refused the connection (${url.host})`, true) : err;
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return;
    // 429 and 5xx: the provider did not take it (Twilio answers 201 once it has), so it may be tried again.
    throw new ProviderError(providerReason(res.statusCode, text), res.statusCode === 429 || res.statusCode >= 500);
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent?.close();
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
