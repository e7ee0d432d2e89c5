import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SharedFile } from '@parley/shared';
import { simulatorMessages } from '../../platform/db/schema/index.js';
import { devToken } from '../identity/authenticator.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { addContact, sendingAccount } from '../../test/sendingFixtures.js';
import { pngOf } from './test/testImages.js';

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(testDatabaseKinds)('MMS pictures through the running server on %s', (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-media-flow-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { DATA_DIR: dataDir, DEV_AUTH: 'true', SIMULATOR: 'true' });
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends an upload to the virtual phone as a signed URL, and keeps the picture the phone sends back', async () => {
    const account = await sendingAccount(server.database.db);
    const contact = await addContact(server.database.db, account.accountId);
    const authorization = `Bearer ${devToken(account.adminId, account.accountId)}`;
    const picture = await pngOf(900, 600);

    const form = new FormData();
    form.append('file', new Blob([picture], { type: 'image/png' }), 'garden.png');
    const uploaded = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}/tools/sharefile?resize=500`, {
      method: 'POST',
      headers: { authorization },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const file = ((await uploaded.json()) as { data: SharedFile }).data;

    const sent = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}/messages`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: [contact.id], template: '', media: [{ url: file.link, type: file.type, filename: 'garden.png' }] }),
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const [message] = ((await sent.json()) as { data: { messages: Message[] } }).data.messages;
    expect(message?.media).toEqual([{ url: file.link, type: 'image/png', filename: 'garden.png' }]);

    const onPhone = await until(async () => {
      const [row] = await server.database.db.select().from(simulatorMessages).where(eq(simulatorMessages.ref, message?.id ?? ''));
      return row ?? null;
    });
    const phoneUrl = new URL(onPhone.media[0]?.url ?? '');
    expect(phoneUrl.pathname).toBe(`/v1/media/${file.id}`);
    const served = await fetch(`${server.baseUrl}${phoneUrl.pathname}${phoneUrl.search}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await served.arrayBuffer()).byteLength).toBe(file.size);
    // Without the signature the same file needs a token.
    expect((await fetch(`${server.baseUrl}${phoneUrl.pathname}`)).status).toBe(403);

    // The phone answers with a picture: the message is stored with it, and it is kept in the background.
    const phone = contact.mobileNumber.replace('+', '');
    const answered = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}/simulator/phones/${phone}/messages`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ to: account.number, picture: true }),
    });
    expect(answered.status, await answered.clone().text()).toBe(201);
    const kept = await until(async () => {
      const res = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}/messages?incoming=true`, { headers: { authorization } });
      const [incoming] = ((await res.json()) as { data: Message[] }).data;
      return incoming?.media[0]?.url.includes(`/v1/accounts/${account.accountId}/media/`) ? incoming : null;
    });
    const keptPath = new URL(kept.media[0]?.url ?? '').pathname;
    const picture2 = await fetch(`${server.baseUrl}${keptPath}`, { headers: { authorization } });
    expect(picture2.status).toBe(200);
    expect(picture2.headers.get('content-type')).toBe('image/png');
  });
});
