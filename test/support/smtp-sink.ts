import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** Body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** A real SMTP server on loopback that keeps every message it accepts. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  private server?: SMTPServer;
  port = 0;
  /** How long the server takes to accept a message: a slow mail server, for tests of what waits for mail. */
  delayMs = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const accept = () => {
            this.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
            cb();
          };
          if (this.delayMs > 0) setTimeout(accept, this.delayMs);
          else accept();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server!.server.address() as { port: number }).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits for the newest mail to `to` whose text matches `pattern`. */
  async waitFor(to: string, pattern: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = [...this.mails].reverse().find((m) => m.to.includes(to) && pattern.test(m.text));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The first link in a mail that contains `fragment`. */
export function linkIn(mail: ReceivedMail, fragment: string): string {
  const m = mail.text.match(new RegExp(`https?://[^\\s"<>]*${fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"<>]*`));
  if (!m) throw new Error(`no link with ${fragment} in mail`);
  return m[0];
}
