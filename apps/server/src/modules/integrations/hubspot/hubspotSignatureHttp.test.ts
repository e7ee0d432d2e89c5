import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyHubSpotSignatureV3 } from './hubspotSignature.js';
import { parseHubSpotWorkflowAction } from './hubspotWorkflowAction.js';
import { HubSpotPeer } from './test/hubspotPeer.js';

// A receiver that checks HubSpot's calls as the framework's route will: the raw body, the URL HubSpot called.
const peer = new HubSpotPeer();
let base = '';
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const signed = verifyHubSpotSignatureV3({
      clientSecret: peer.clientSecret,
      method: request.method ?? '',
      url: `${base}${request.url ?? ''}`,
      body: request.url?.includes('tamper') === true ? body.replace('Hello', 'Hullo') : body,
      signature: header('x-hubspot-signature-v3'),
      timestamp: header('x-hubspot-request-timestamp'),
      nowMs: Date.now(),
    });
    const parsed = parseHubSpotWorkflowAction(JSON.parse(body) as unknown);
    response.writeHead(signed ? 200 : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify(signed && parsed.ok ? parsed.action : { refused: true }));
  });
});

beforeAll(async () => {
  await peer.start();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
});
afterAll(async () => {
  await peer.stop();
  await new Promise<void>((resolve) => receiver.close(() => { resolve(); }));
});

describe('a workflow action request over HTTP', () => {
  it('is accepted as HubSpot signed it, and read', async () => {
    const contact = peer.addContact({ firstname: 'Ada', mobilephone: '+14155550100' });
    const answer = await peer.sendWorkflowAction(`${base}/v1/integrations/hubspot/actions/send?account=a%3Ab`, contact.id, { message: 'Hello' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ portalId: String(peer.hubId), contactId: contact.id, inputFields: { message: 'Hello' } });
  });

  it('is refused when its body was changed on the way', async () => {
    const contact = peer.addContact({ firstname: 'Ada', mobilephone: '+14155550100' });
    const answer = await peer.sendWorkflowAction(`${base}/v1/integrations/hubspot/actions/send?tamper=1`, contact.id, { message: 'Hello' });
    expect(answer.status).toBe(401);
  });
});
