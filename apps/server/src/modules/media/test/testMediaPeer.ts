import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MediaPeerFile {
  type: string;
  bytes: Buffer;
  /** 'basic': answer 401 unless the request carries these credentials. */
  auth?: { user: string; password: string };
  status?: number;
}

/**
 * A local HTTP server that serves attachments as a carrier does: some behind HTTP basic auth (Twilio's media
 * with "HTTP basic authentication for media" on), some public, some failing. It records what it was sent.
 */
export class MediaPeer {
  readonly files = new Map<string, MediaPeerFile>();
  readonly requests: { path: string; authorization: string | undefined }[] = [];
  private readonly server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://peer').pathname;
    this.requests.push({ path, authorization: request.headers.authorization });
    const file = this.files.get(path);
    if (!file) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    if (file.auth) {
      const expected = `Basic ${Buffer.from(`${file.auth.user}:${file.auth.password}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="Twilio API"', 'content-type': 'application/json' }).end('{"code":20003}');
        return;
      }
    }
    if (file.status !== undefined && file.status !== 200) {
      response.writeHead(file.status).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) }).end(file.bytes);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => {
        if (error) reject(error);
        else resolve();
      });
    });
  }
}
