import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@parley/shared';
import { routeTable } from '../../../app/httpApp.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startTestServer, type TestServer } from '../../../test/server.js';

const DEV_PATHS = ['/dev/mailbox', '/dev/mailbox.json', '/dev/mailbox/01900000-0000-7000-8000-000000000000'];

async function expectNotFound(baseUrl: string, path: string): Promise<void> {
  const res = await fetch(`${baseUrl}${path}`);
  expect(res.status).toBe(404);
  expect(errorBodySchema.parse(await res.json()).error.code).toBe('not_found');
}

interface MailboxJson {
  data: { id: string; to: string; subject: string; text: string; html: string | null; createdAt: string }[];
}

describe('development mailbox in embedded mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { SERVICES: 'web', MAIL_FROM: 'Parley Dev <dev@parley.test>' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists the messages sent, newest first, each linking to the message', async () => {
    expect(server.mailer.kind).toBe('mailbox');
    const older = await server.mailer.send({ to: 'ada@example.com', subject: 'Welcome', text: 'Hello' });
    const newer = await server.mailer.send({ to: 'bob@example.com', subject: 'Reset your password', text: 'Go' });

    const res = await fetch(`${server.baseUrl}/dev/mailbox`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toMatch(/^<!doctype html>/);
    const newerAt = page.indexOf(`<a href="/dev/mailbox/${newer.id}">Reset your password</a>`);
    const olderAt = page.indexOf(`<a href="/dev/mailbox/${older.id}">Welcome</a>`);
    expect(newerAt).toBeGreaterThan(-1);
    expect(olderAt).toBeGreaterThan(newerAt);
    expect(page).toContain('<td>bob@example.com</td>');
    expect(page).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/time>/);
  });

  it('shows a message with its headers and a clickable, escaped text body', async () => {
    const { id } = await server.mailer.send({
      to: 'ada@example.com',
      subject: 'Verify your e-mail address',
      text: 'Welcome!\nOpen http://localhost:3000/verify?token=t0k&user=1 to verify.\n',
    });
    const res = await fetch(`${server.baseUrl}/dev/mailbox/${id}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<dt>From</dt><dd>Parley Dev &lt;dev@parley.test&gt;</dd>');
    expect(page).toContain('<dt>To</dt><dd>ada@example.com</dd>');
    expect(page).toContain('<h1>Verify your e-mail address</h1>');
    expect(page).toContain(
      '<pre>Welcome!\nOpen <a href="http://localhost:3000/verify?token=t0k&amp;user=1">' +
        'http://localhost:3000/verify?token=t0k&amp;user=1</a> to verify.\n</pre>',
    );
    expect(page).not.toContain('<iframe');
  });

  it('escapes what it shows and keeps HTML bodies in a sandboxed frame', async () => {
    const { id } = await server.mailer.send({
      to: '<img src=x onerror=alert(1)>@example.com',
      subject: '<script>alert("subject")</script>',
      text: '</pre><script>alert(2)</script>',
      html: '<p onclick="alert(3)">Hi</p><script>alert(4)</script>"',
    });
    const list = await (await fetch(`${server.baseUrl}/dev/mailbox`)).text();
    expect(list).toContain('&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;');
    expect(list).toContain('&lt;img src=x onerror=alert(1)&gt;@example.com');
    expect(list).not.toMatch(/<script|<img/);

    const page = await (await fetch(`${server.baseUrl}/dev/mailbox/${id}`)).text();
    expect(page).toContain('<title>&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt; - Mailbox - Parley</title>');
    expect(page).toContain('<pre>&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;</pre>');
    expect(page).toContain(
      '<iframe title="HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="' +
        '&lt;base target=&quot;_blank&quot;&gt;&lt;p onclick=&quot;alert(3)&quot;&gt;Hi&lt;/p&gt;' +
        '&lt;script&gt;alert(4)&lt;/script&gt;&quot;"></iframe>',
    );
    expect(page).not.toMatch(/<script|<img|<p onclick/);
  });

  it('answers the messages as JSON, optionally for one recipient', async () => {
    const { id } = await server.mailer.send({
      to: 'json@example.com',
      subject: 'For the browser tests',
      text: 'text',
      html: '<p>html</p>',
    });
    const res = await fetch(`${server.baseUrl}/dev/mailbox.json?to=json@example.com`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as MailboxJson;
    expect(body.data).toEqual([
      {
        id,
        to: 'json@example.com',
        subject: 'For the browser tests',
        text: 'text',
        html: '<p>html</p>',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) as unknown,
      },
    ]);
    const all = (await (await fetch(`${server.baseUrl}/dev/mailbox.json`)).json()) as MailboxJson;
    expect(all.data[0]?.id).toBe(id);
    expect(all.data.length).toBeGreaterThan(1);
    const limited = (await (await fetch(`${server.baseUrl}/dev/mailbox.json?limit=1`)).json()) as MailboxJson;
    expect(limited.data.map((m) => m.id)).toEqual([id]);
    const bad = await fetch(`${server.baseUrl}/dev/mailbox.json?limit=0`);
    expect(bad.status).toBe(400);
    expect(errorBodySchema.parse(await bad.json()).error.code).toBe('validation_failed');
  });

  it('answers an unknown or malformed message id with a 404', async () => {
    await expectNotFound(server.baseUrl, '/dev/mailbox/01900000-0000-7000-8000-000000000000');
    await expectNotFound(server.baseUrl, '/dev/mailbox/not-an-id');
  });

  it('answers only this machine: another host, or a request a proxy passed on, is told 404', async () => {
    const app = server.app;
    if (!app) throw new Error('the web role did not start');
    await server.mailer.send({ to: 'victim@example.com', subject: 'Reset your password', text: 'http://x/reset?token=secret' });
    for (const url of DEV_PATHS.slice(0, 2)) {
      const local = await app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
      expect(local.statusCode, url).toBe(200);
      for (const remoteAddress of ['192.0.2.10', '10.0.0.7', '::ffff:192.0.2.10', '2001:db8::1']) {
        const remote = await app.inject({ method: 'GET', url, remoteAddress });
        expect(remote.statusCode, `${url} from ${remoteAddress}`).toBe(404);
        expect(remote.body).not.toContain('secret');
        // A forwarded header naming loopback changes nothing: the socket decides.
        const spoofed = await app.inject({ method: 'GET', url, remoteAddress, headers: { 'x-forwarded-for': '127.0.0.1' } });
        expect(spoofed.statusCode).toBe(404);
      }
      // A reverse proxy on this machine connects from loopback, but says it passed the request on.
      for (const headers of [{ 'x-forwarded-for': '203.0.113.5' }, { forwarded: 'for=203.0.113.5' }, { 'x-real-ip': '203.0.113.5' }]) {
        const proxied = await app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers });
        expect(proxied.statusCode).toBe(404);
      }
    }
    const remoteMessage = await app.inject({ method: 'GET', url: DEV_PATHS[2] ?? '', remoteAddress: '192.0.2.10' });
    expect(remoteMessage.statusCode).toBe(404);
    expect(errorBodySchema.parse(remoteMessage.json()).error.code).toBe('not_found');
  });

  it('declares a permission on every /dev route', () => {
    if (!server.app) throw new Error('the web role did not start');
    const dev = routeTable(server.app).filter((route) => route.url.startsWith('/dev'));
    expect(dev.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /dev/mailbox', 'GET /dev/mailbox.json', 'GET /dev/mailbox/:id']),
    );
    expect(dev.filter((route) => route.permission === undefined)).toEqual([]);
  });
});

describe('development mailbox when SMTP is configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { SERVICES: 'web', SMTP_URL: 'smtp://127.0.0.1:2525' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is not served', async () => {
    expect(server.mailer.kind).toBe('smtp');
    for (const path of DEV_PATHS) await expectNotFound(server.baseUrl, path);
  });
});

describe.each(testDatabaseKinds.filter((kind) => kind === 'postgres'))('development mailbox on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { SERVICES: 'web' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is not served, though mail is kept in the table', async () => {
    expect(server.mailer.kind).toBe('mailbox');
    await server.mailer.send({ to: 'ada@example.com', subject: 'Kept', text: 'but not shown' });
    for (const path of DEV_PATHS) await expectNotFound(server.baseUrl, path);
  });
});
