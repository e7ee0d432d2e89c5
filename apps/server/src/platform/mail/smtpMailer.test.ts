import net from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailDeliveryError } from './mailer.js';
import { createSmtpMailer, smtpEndpoint } from './smtpMailer.js';

interface Received {
  raw: Buffer;
  mailFrom: string | null;
  rcptTo: string[];
  user: unknown;
}

const USER = 'parley';
const PASSWORD = 'p@ss:w/rd 1';

/** A real SMTP server on a free port that asks for a password and refuses mail to @blocked.test. */
async function startSmtpServer(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@blocked.test')) {
        callback(Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          raw: Buffer.concat(chunks),
          mailFrom: mailFrom === false ? null : mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(resolve);
    });
  return { port, received, close };
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

describe('SMTP mailer', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let url: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    url = `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${smtp.port}`;
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers a message with its headers and both bodies, signed in with the URL credentials', async () => {
    const mailer = createSmtpMailer({ url, from: 'Parley Test <no-reply@parley.test>' });
    expect(mailer.kind).toBe('smtp');
    const sent = await mailer.send({
      to: 'ada@example.com',
      subject: 'Verify your e-mail address – Ünïcode',
      text: 'Open https://parley.test/verify?token=abc to verify.\n',
      html: '<p>Open <a href="https://parley.test/verify?token=abc">this link</a>.</p>',
    });

    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    if (!message) throw new Error('nothing arrived');
    expect(message.user).toBe(USER);
    expect(message.mailFrom).toBe('no-reply@parley.test');
    expect(message.rcptTo).toEqual(['ada@example.com']);

    const parsed = await simpleParser(message.raw);
    expect(parsed.from?.value).toEqual([{ name: 'Parley Test', address: 'no-reply@parley.test' }]);
    expect(addresses(parsed.to)).toEqual(['ada@example.com']);
    expect(parsed.subject).toBe('Verify your e-mail address – Ünïcode');
    expect(parsed.text).toBe('Open https://parley.test/verify?token=abc to verify.\n');
    expect(parsed.html).toContain('<a href="https://parley.test/verify?token=abc">this link</a>');
    expect(parsed.messageId).toBe(sent.id);
  });

  it('sends plain text alone when there is no HTML body', async () => {
    const mailer = createSmtpMailer({ url, from: 'no-reply@parley.test' });
    await mailer.send({ to: 'bob@example.com', subject: 'Plain', text: 'Just text.' });
    const parsed = await simpleParser(smtp.received.at(-1)?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe('Plain');
    expect(parsed.text?.trim()).toBe('Just text.');
    expect(parsed.html).toBe(false);
  });

  it('rejects with a clear error when the server refuses the recipient', async () => {
    const mailer = createSmtpMailer({ url, from: 'no-reply@parley.test' });
    const before = smtp.received.length;
    const sending = mailer.send({ to: 'nobody@blocked.test', subject: 'Hello', text: 'Hi' });
    await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(sending).rejects.toThrow(
      new RegExp(`^Could not send e-mail to nobody@blocked\\.test through SMTP 127\\.0\\.0\\.1:${smtp.port}: .*550.*No such mailbox`),
    );
    expect(smtp.received.length).toBe(before);
  });

  it('rejects with a clear error, without the password, when the credentials are wrong', async () => {
    const mailer = createSmtpMailer({ url: `smtp://${USER}:wrong-secret@127.0.0.1:${smtp.port}`, from: 'a@parley.test' });
    const error = await mailer.send({ to: 'ada@example.com', subject: 'x', text: 'x' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(String(error)).toMatch(/Could not send e-mail to ada@example\.com through SMTP 127\.0\.0\.1:\d+: .*Invalid username or password/);
    expect(String(error)).not.toContain('wrong-secret');
  });

  it('rejects with a clear error when nothing listens on the port', async () => {
    const port = await closedPort();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'a@parley.test', timeoutMs: 2000 });
    await expect(mailer.send({ to: 'ada@example.com', subject: 'x', text: 'x' })).rejects.toThrow(
      new RegExp(`^Could not send e-mail to ada@example\\.com through SMTP 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });
});

describe('smtpEndpoint', () => {
  it('names host and port without the credentials, with the default port of each scheme', () => {
    expect(smtpEndpoint('smtps://u:secret@mail.example.com')).toBe('mail.example.com:465');
    expect(smtpEndpoint('smtp://u:secret@mail.example.com')).toBe('mail.example.com:587');
    expect(smtpEndpoint('smtp://mail.example.com:2525')).toBe('mail.example.com:2525');
  });
});
