import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server of the test's own on loopback (smtp-server), keeping every message parsed (mailparser). */
export interface TestSmtp {
  /** The SMTP_URL for the app. */
  url: string;
  messages: ParsedMail[];
  /** The first message (received or to come) that `match` accepts; fails after `ms`. */
  waitFor(match: (m: ParsedMail) => boolean, ms?: number): Promise<ParsedMail>;
  /** Messages sent to this address so far. */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'], // plain loopback: nodemailer would refuse its self-signed certificate
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m) => {
          messages.push(m);
          for (const l of listeners) l();
          callback();
        })
        .catch((e: Error) => callback(e));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const addresses = (m: ParsedMail): string[] =>
    (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) =>
      a.value.map((v) => (v.address ?? '').toLowerCase()),
    );
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => addresses(m).includes(address.toLowerCase())),
    waitFor: (match, ms = 10_000) =>
      new Promise<ParsedMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching e-mail within ${ms} ms (${messages.length} received)`));
        }, ms);
        listeners.add(check);
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
