import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An SMTP server on loopback that keeps every email it is handed, for `SMTP_URL`. */
export interface SmtpCatcher {
  url: string;
  /** In the order received: the envelope's recipients (comma-joined) and the raw message. */
  mail: Array<{ to: string; data: string }>;
  close(): Promise<void>;
}

export async function smtpCatcher(): Promise<SmtpCatcher> {
  const mail: SmtpCatcher['mail'] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        mail.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mail,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}
