import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise every mail is written as a JSON file to the outbox
 * folder, so links can be followed on a machine without mail. The log names the recipient,
 * subject and file only: bodies carry activation and reset links, which are credentials.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string }, log: Logger): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(msg) {
        await transport.sendMail({ from: opts.from, ...msg });
        log.info({ to: msg.to, subject: msg.subject }, 'mail sent');
      },
    };
  }
  return {
    async send(msg) {
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${Date.now()}-${msg.to.replace(/[^a-z0-9@.]/gi, '_')}.json`);
      // Owner-only: the file holds the link.
      fs.writeFileSync(file, JSON.stringify({ from: opts.from, ...msg }, null, 2), { mode: 0o600 });
      log.info({ to: msg.to, subject: msg.subject, file }, 'mail written to outbox (SMTP_URL not set)');
    },
  };
}
