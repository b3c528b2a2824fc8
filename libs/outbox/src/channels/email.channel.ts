import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { AppConfig } from '@hostboard/core';
import type { GuestChannel, OutgoingMessage } from './guest-channel.js';
import { connectionRefused, ProviderError } from './provider-error.js';

/** Email through SMTP (nodemailer) when SMTP_URL is set. */
@Injectable()
export class EmailChannel implements GuestChannel, OnModuleDestroy {
  readonly channel = 'email' as const;
  private readonly transport?: Transporter;

  constructor(private readonly config: AppConfig) {
    if (config.SMTP_URL) this.transport = nodemailer.createTransport(config.SMTP_URL);
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(m: OutgoingMessage): Promise<void> {
    if (!this.transport) throw new Error('no email provider is configured');
    try {
      await this.transport.sendMail({ from: this.config.SMTP_FROM, to: m.to, subject: m.subject, text: m.body });
    } catch (err) {
      // An SMTP 4xx is a transient refusal: the server did not take the message.
      const code = (err as { responseCode?: unknown }).responseCode;
      const transient = typeof code === 'number' && code >= 400 && code < 500;
      if (connectionRefused(err) || transient) throw new ProviderError((err as Error).message, true);
      throw err;
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
