import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The bytes that went over the wire (the DATA of the SMTP exchange). */
  raw: Buffer;
  parsed: ParsedMail;
  /** The envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
}

/**
 * A real SMTP server on loopback (the `smtp-server` package), for the service's SMTP_URL: it keeps
 * what it receives, parsed by `mailparser`. `answer` decides each message's fate, given its
 * recipients: undefined accepts it, a reply code (451: try later, 550: refused for good) refuses it.
 */
export async function startSmtpReceiver(answer: (recipients: string[]) => number | undefined = () => undefined) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = answer(session.envelope.rcptTo.map((r) => r.address));
        if (code !== undefined) {
          callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              raw,
              parsed,
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
