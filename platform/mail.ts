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
 * SMTP when `SMTP_URL` is set; otherwise every mail is logged and written as a .eml-like
 * JSON file to the outbox folder, so links can be followed on a machine without mail.
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
      fs.writeFileSync(file, JSON.stringify({ from: opts.from, ...msg }, null, 2));
      log.info({ to: msg.to, subject: msg.subject, file, text: msg.text }, 'mail written to outbox (SMTP_URL not set)');
    },
  };
}
