import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { AppConfig } from '@hostboard/core';
import type { GuestChannel, OutgoingMessage } from './guest-channel.js';
import { connectionRefused, ProviderError } from './provider-error.js';

/** Email through SMTP (nodemailer) when SMTP_URL is set. */
@Injectable()
export class EmailChannel implements GuestChannel, OnModuleDestroy {
  readonly channel = 'email' as const;
  /** nodemailer is loaded only by a process that sends email: SMTP_URL is set. */
  private readonly transport?: Promise<Transporter>;

  constructor(private readonly config: AppConfig) {
    const url = config.SMTP_URL;
    if (url) this.transport = import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(url));
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(m: OutgoingMessage): Promise<void> {
    if (!this.transport) throw new Error('no email provider is configured');
    const transport = await this.transport;
    try {
      await transport.sendMail({ from: this.config.SMTP_FROM, to: m.to, subject: m.subject, text: m.body });
    } catch (err) {
      // An SMTP 4xx is a transient refusal: the server did not take the message.
      const code = (err as { responseCode?: unknown }).responseCode;
      const transient = typeof code === 'number' && code >= 400 && code < 500;
      if (connectionRefused(err) || transient) throw new ProviderError((err as Error).message, true);
      throw err;
    }
  }

  async onModuleDestroy(): Promise<void> {
    (await this.transport)?.close();
  }
}
