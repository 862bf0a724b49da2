/**
 * The service the credentials model runs against: a live deployment (APP_ENV=live, a `sk_live_`
 * bootstrap super_user token) on a database of its own, as `npm start` runs it, in which the world
 * (world.ts) makes live networks and a test one. Live mode answers invitations without their token
 * and has no development mailbox, so mail goes over SMTP (SMTP_URL) to a real receiver on loopback,
 * where the model reads invitation tokens and sign-in links as their recipients do. With
 * `processes: 2`, a second web process (`WORKER=off`) on the same database and site: the scale-out
 * README.md documents, for the interleaved test.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { simpleParser } from 'mailparser';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { createTestDatabase } from '@/tests/support/database';
import { API_ONLY, ROOT, startServerProcess } from '@/tests/support/server-process';
import { SHARED_SERVICE_LIMITS } from '@/tests/support/shared-limits';
import type { ReceivedMail } from '@/tests/support/smtp-receiver';
import { violation } from './http';

/**
 * An SMTP receiver on loopback that keeps every message, parsed by `mailparser`: what
 * tests/support/smtp-receiver.ts does, less its `smtp-server`'s 100 ms pause before each greeting
 * (it listens for clients that talk too early), which a run's hundreds of mails — every sign-in's
 * among them — would each wait. Plain SMTP as nodemailer speaks it: no extensions, no TLS, no AUTH.
 */
async function startReceiver() {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const address = (line: string) => /<([^>]*)>/.exec(line)?.[1] ?? '';
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let from = '';
    let to: string[] = [];
    let data: string[] | undefined;
    createInterface({ input: socket, crlfDelay: Infinity }).on('line', (line) => {
      if (data) {
        if (line !== '.') {
          data.push(line.startsWith('.') ? line.slice(1) : line); // dot-stuffing undone
          return;
        }
        const raw = Buffer.from(`${data.join('\r\n')}\r\n`);
        const envelope = { from, to };
        [data, to] = [undefined, []];
        simpleParser(raw).then(
          (parsed) => {
            received.push({ raw, parsed, ...envelope });
            reply('250 OK: kept');
          },
          () => reply('554 unreadable message'),
        );
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'MAIL') from = address(line);
      if (verb === 'RCPT') to.push(address(line));
      if (verb === 'DATA') data = [];
      if (verb === 'QUIT') socket.end('221 bye\r\n');
      else reply(verb === 'DATA' ? '354 end data with <CR><LF>.<CR><LF>' : '250 OK');
    });
    reply('220 credentials-model ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What reached the receiver, read as its recipients read it. */
export interface Mailbox {
  /** The token of the invitation whose email is `emailId` (the invitation's `email_id`): its accept link's fragment. */
  invitationToken(emailId: string): Promise<string>;
  /** The token of the oldest sign-in link sent to `email` that was not read yet. */
  signInToken(email: string): Promise<string>;
  /** The `prefix_…` token of the link in the email `emailId` (a voice consent request's: `vcl`). */
  linkToken(emailId: string, prefix: string): Promise<string>;
  /**
   * The first `prefix_…` link token mailed to `to` that `accept` takes (a review link whose hash is
   * the creative's): the host's mailbox holds many; each token is handed out once.
   */
  tokenTo(to: string, prefix: string, accept: (token: string) => boolean, what: string): Promise<string>;
}

const MAIL_WAIT_MS = 20_000;
/** How long a mail may take before the worker is nudged to look for it (then again as often). */
const NUDGE_AFTER_MS = 25;

/**
 * The service's outgoing mail as it arrives at `received`. The worker sends one email of a queue
 * at a time (a network's, a person's: server/services/mail/queue-email.ts) and fetches a queue's
 * next job when told of a new job or at its next poll (2 s): an invitation queued behind another
 * of its network would wait for that poll. While a mail is awaited, the mailbox tells the worker
 * what a new job would (NOTIFY "jobs:insert"), so it fetches at once what is ready; nothing else
 * of how mail is sent changes.
 */
function mailbox(received: readonly ReceivedMail[], sql: postgres.Sql): Mailbox {
  const byEmailId = new Map<string, ReceivedMail>();
  const unreadSignIns = new Map<string, ReceivedMail[]>();
  let indexed = 0;
  // The service sends each email with Message-ID <its email id@MAIL_FROM's host> (server/services/mail/send-email.ts).
  const index = () => {
    for (; indexed < received.length; indexed++) {
      const mail = received[indexed]!;
      const emailId = /^<?([^@<>]+)@/.exec(mail.parsed.messageId ?? '')?.[1];
      if (emailId) byEmailId.set(emailId, mail);
      if (!mail.parsed.subject?.startsWith('Your sign-in link')) continue;
      for (const to of mail.to) unreadSignIns.set(to, [...(unreadSignIns.get(to) ?? []), mail]);
    }
  };
  let nudged = 0;
  const nudge = async () => {
    if (Date.now() - nudged < NUDGE_AFTER_MS) return;
    nudged = Date.now();
    await sql`select pg_notify('jobs:insert', '{"count":1}')`;
  };
  /** Waits until `find` finds the token (nudging the worker now and then). */
  const waitForToken = async (what: string, find: () => string | undefined): Promise<string> => {
    const started = Date.now();
    for (const deadline = started + MAIL_WAIT_MS; ; await new Promise((resolve) => setTimeout(resolve, 10))) {
      if (Date.now() - started > NUDGE_AFTER_MS) await nudge();
      index();
      const token = find();
      if (token) return token;
      if (Date.now() > deadline) throw violation(`${what} did not reach the mailbox within ${MAIL_WAIT_MS / 1000} s`);
    }
  };
  /** The link token (`prefix_…`) a mail carries, in its link's fragment; a mail without one is a violation. */
  const linkIn = (what: string, mail: ReceivedMail | undefined, prefix: string): string | undefined => {
    if (!mail) return undefined;
    const token = new RegExp(`#token=(${prefix}_[0-9A-Za-z]+)`).exec(mail.parsed.text ?? '')?.[1];
    if (!token) throw violation(`${what} carries no link: ${mail.parsed.text?.slice(0, 300)}`);
    return token;
  };
  const taken = new Set<string>();
  return {
    invitationToken: (emailId) => {
      const what = `the invitation email ${emailId}`;
      return waitForToken(what, () => linkIn(what, byEmailId.get(emailId), 'inv'));
    },
    signInToken: (email) => {
      const what = `a sign-in link for ${email}`;
      return waitForToken(what, () => linkIn(what, unreadSignIns.get(email)?.shift(), 'sil'));
    },
    linkToken: (emailId, prefix) => {
      const what = `the email ${emailId}`;
      return waitForToken(what, () => linkIn(what, byEmailId.get(emailId), prefix));
    },
    tokenTo: async (to, prefix, accept, what) => {
      const pattern = new RegExp(`#token=(${prefix}_[0-9A-Za-z]+)`, 'g');
      const token = await waitForToken(what, () => {
        for (const mail of received) {
          if (!mail.to.includes(to)) continue;
          const found = [...(mail.parsed.text ?? '').matchAll(pattern)].map((m) => m[1]!).find((t) => !taken.has(t) && accept(t));
          if (found) return found;
        }
        return undefined;
      });
      taken.add(token);
      return token;
    },
  };
}

export interface LiveService {
  /** The web processes' base URLs (one, or two on one database). */
  urls: readonly string[];
  /** The operator's bootstrap super_user token (`sk_live_`). */
  superToken: string;
  /** A connection of the test's own to the service's database. */
  sql: postgres.Sql;
  mail: Mailbox;
}

/**
 * The live service for the tests of one file: started before them (both processes at once) and
 * stopped after them, with its database and receiver. Its fields are there from the first test on.
 */
export function useLiveService(label: string, { processes = 1 }: { processes?: 1 | 2 } = {}): LiveService {
  const service = {} as LiveService;
  const cleanUp: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of cleanUp.splice(0).reverse()) await step();
  };
  beforeAll(async () => {
    try {
      const relay = await startReceiver();
      cleanUp.push(relay.close);
      const database = await createTestDatabase(label);
      cleanUp.push(database.drop);
      const superToken = generateApiKeyToken('live');
      const env = {
        ...API_ONLY,
        DATABASE_URL: database.url,
        APP_ENV: 'live',
        BOOTSTRAP_SUPERUSER_TOKEN: superToken,
        APP_SECRET_KEY: randomBytes(24).toString('hex'),
        SMTP_URL: relay.url,
        // One site behind a balancer: where a passkey is made and used (the document's `servers`).
        PUBLIC_URL: 'https://ads.credentials-model.example',
        // As the shared service's (tests/support/shared-limits.ts): one person signs in hundreds of times a run.
        ...SHARED_SERVICE_LIMITS,
      };
      const log = (i: number) => path.join(ROOT, 'test-results', `${label}-live-web-process-${i + 1}.log`);
      const settled = await Promise.allSettled(
        Array.from({ length: processes }, (_, i) => startServerProcess(i === 0 ? env : { ...env, WORKER: 'off' }, log(i))),
      );
      const servers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      cleanUp.push(() => Promise.all(servers.map((s) => s.stop())));
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      const sql = postgres(database.url, { max: 2, onnotice: () => {} });
      cleanUp.push(() => sql.end({ timeout: 5 }));
      Object.assign(service, { urls: servers.map((s) => s.url), superToken, sql, mail: mailbox(relay.received, sql) });
    } catch (error) {
      await stop();
      throw error;
    }
  }, 200_000);
  afterAll(stop);
  return service;
}
