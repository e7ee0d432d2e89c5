import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiErrorMessages, createApiClient, errorMessage, messageFromBody } from './client';

interface Call {
  url: string;
  init: RequestInit;
}

const json = (status: number, body: unknown, contentType = 'application/json'): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });

const setup = (answer: Response | (() => Promise<Response>), extra: { token?: string } = {}) => {
  const calls: Call[] = [];
  const onUnauthorized = vi.fn<(status: number) => void>();
  const fetchImpl = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({ url: input instanceof Request ? input.url : String(input), init: init ?? {} });
    return typeof answer === 'function' ? answer() : Promise.resolve(answer);
  };
  const client = createApiClient({
    baseUrl: 'http://api.test',
    fetch: fetchImpl,
    getToken: () => extra.token,
    onUnauthorized,
  });
  const headers = (): Headers => new Headers(calls[0]?.init.headers);
  return { client, calls, onUnauthorized, headers };
};

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the call to reject');
};

describe('requests', () => {
  it('asks for JSON and sends no token when none exists', async () => {
    const { client, calls, headers } = setup(json(200, { ok: true }));
    await client.get('/v1/config');
    expect(calls[0]?.url).toBe('http://api.test/v1/config');
    expect(calls[0]?.init.method).toBe('GET');
    expect(headers().get('accept')).toBe('application/json');
    expect(headers().has('authorization')).toBe(false);
    expect(headers().has('content-type')).toBe(false);
  });

  it('sends the bearer token when one is provided', async () => {
    const { client, headers } = setup(json(200, {}), { token: 'abc.def' });
    await client.get('/v1/accounts');
    expect(headers().get('authorization')).toBe('Bearer abc.def');
  });

  it('posts and puts JSON bodies with a content type', async () => {
    const post = setup(json(201, { data: { id: '1' } }));
    await post.client.post('/v1/accounts', { name: 'Acme' });
    expect(post.calls[0]?.init.method).toBe('POST');
    expect(post.calls[0]?.init.body).toBe('{"name":"Acme"}');
    expect(post.headers().get('content-type')).toBe('application/json');

    const put = setup(json(200, {}));
    await put.client.put('/v1/accounts/1', { name: 'Acme' });
    expect(put.calls[0]?.init.method).toBe('PUT');
    expect(put.headers().get('content-type')).toBe('application/json');
  });

  it('sends extra headers, but keeps its own Accept, Authorization and Content-Type', async () => {
    const { client, headers } = setup(json(200, {}), { token: 'abc.def' });
    await client.post(
      '/v1/accounts/1/topup',
      { amount: '10' },
      { headers: { 'Idempotency-Key': 'key-1', Authorization: 'Bearer other', Accept: 'text/html', 'Content-Type': 'text/plain' } },
    );
    expect(headers().get('idempotency-key')).toBe('key-1');
    expect(headers().get('authorization')).toBe('Bearer abc.def');
    expect(headers().get('accept')).toBe('application/json');
    expect(headers().get('content-type')).toBe('application/json');
  });

  it('sends a file as it is, with its own type', async () => {
    const upload = setup(json(202, { data: { id: '1' } }));
    const file = new Blob(['mobile\n+14155552671\n'], { type: 'text/csv' });
    await upload.client.post('/v1/accounts/1/contacts/imports', file);
    expect(upload.calls[0]?.init.body).toBe(file);
    expect(upload.headers().get('content-type')).toBe('text/csv');
    const untyped = setup(json(202, {}));
    await untyped.client.post('/upload', new Blob(['x']));
    expect(untyped.headers().get('content-type')).toBe('application/octet-stream');
  });

  it('puts list filters in the query string and leaves empty values out', async () => {
    const { client, calls } = setup(json(200, {}));
    await client.get('/v1/contacts', { query: { limit: 10, search: '', tag: undefined, list: null, closed: false } });
    expect(calls[0]?.url).toBe('http://api.test/v1/contacts?limit=10&closed=false');
  });
});

describe('successful answers', () => {
  it('parses JSON on 200', async () => {
    const { client } = setup(json(200, { data: [1, 2] }));
    await expect(client.get('/x')).resolves.toEqual({ data: [1, 2] });
  });

  it('parses JSON on 201', async () => {
    const { client } = setup(json(201, { data: { id: 'n' } }));
    await expect(client.post('/x', {})).resolves.toEqual({ data: { id: 'n' } });
  });

  it('parses JSON with a charset and a +json type', async () => {
    await expect(setup(json(200, { a: 1 }, 'application/json; charset=utf-8')).client.get('/x')).resolves.toEqual({ a: 1 });
    await expect(setup(json(200, { a: 2 }, 'application/problem+json')).client.get('/x')).resolves.toEqual({ a: 2 });
  });

  it('answers text when the content type is not JSON', async () => {
    const csv = new Response('id,name\n1,Ann\n', { status: 200, headers: { 'content-type': 'text/csv' } });
    await expect(setup(csv).client.get('/x')).resolves.toBe('id,name\n1,Ann\n');
  });

  it('answers undefined on 204', async () => {
    const { client } = setup(new Response(null, { status: 204 }));
    await expect(client.delete('/x')).resolves.toBeUndefined();
  });

  it('answers undefined for an empty JSON body', async () => {
    const empty = new Response('', { status: 200, headers: { 'content-type': 'application/json' } });
    await expect(setup(empty).client.get('/x')).resolves.toBeUndefined();
  });

  it('rejects a JSON success it cannot parse as unrecognized', async () => {
    const broken = new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } });
    const error = await rejection(setup(broken).client.get('/x'));
    expect(error.message).toBe('Unrecognized server response. Please try again later.');
  });

  it('checks the answer against a schema when one is given', async () => {
    const schema = z.object({ version: z.string() });
    await expect(setup(json(200, { version: '1' })).client.get('/x', { schema })).resolves.toEqual({ version: '1' });
    const error = await rejection(setup(json(200, { version: 1 })).client.get('/x', { schema }));
    expect(error.message).toBe('Unrecognized server response. Please try again later.');
  });
});

describe('401 and 403', () => {
  it.each([401, 403])('%i calls onUnauthorized and rejects', async (status) => {
    const { client, onUnauthorized } = setup(json(status, { error: { code: 'unauthorized', message: 'Sign in again' } }));
    const error = await rejection(client.get('/x'));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith(status);
    expect(error.status).toBe(status);
    expect(error.message).toBe('Sign in again');
  });

  it('calls onUnauthorized even when the body is not JSON', async () => {
    const { client, onUnauthorized } = setup(new Response('Forbidden', { status: 403 }));
    const error = await rejection(client.get('/x'));
    expect(onUnauthorized).toHaveBeenCalledWith(403);
    expect(error.message).toBe('Unrecognized server response. Please try again later.');
  });

  it('does not call onUnauthorized for other failures', async () => {
    const { client, onUnauthorized } = setup(json(404, { error: { code: 'not_found', message: 'Not found' } }));
    await rejection(client.get('/x'));
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('other failures', () => {
  it('takes error.message first, with the status and code', async () => {
    const body = { error: { code: 'conflict', message: 'First', description: 'Second' }, message: 'Third', description: 'Fourth' };
    const error = await rejection(setup(json(409, body)).client.get('/x'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('First');
    expect(error.status).toBe(409);
    expect(error.code).toBe('conflict');
  });

  it('then error.description', async () => {
    const body = { error: { description: 'Second' }, message: 'Third', description: 'Fourth' };
    expect((await rejection(setup(json(400, body)).client.get('/x'))).message).toBe('Second');
  });

  it('then message', async () => {
    const body = { error: {}, message: 'Third', description: 'Fourth' };
    expect((await rejection(setup(json(422, body)).client.get('/x'))).message).toBe('Third');
  });

  it('then description', async () => {
    expect((await rejection(setup(json(500, { description: 'Fourth' })).client.get('/x'))).message).toBe('Fourth');
  });

  it('else the fallback message', async () => {
    const error = await rejection(setup(json(500, { error: { code: 'internal_error' } })).client.get('/x'));
    expect(error.message).toBe('Unable to process this request at this time.');
    expect(error.code).toBe('internal_error');
  });

  it('reads JSON even when the failure is not labelled as JSON', async () => {
    const mislabelled = new Response('{"message":"Plain"}', { status: 400, headers: { 'content-type': 'text/plain' } });
    expect((await rejection(setup(mislabelled).client.get('/x'))).message).toBe('Plain');
  });

  it('answers unrecognized when the failure body is not JSON', async () => {
    const html = new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    const error = await rejection(setup(html).client.get('/x'));
    expect(error.message).toBe('Unrecognized server response. Please try again later.');
    expect(error.status).toBe(502);
  });

  it('answers unrecognized when the failure has no body', async () => {
    const error = await rejection(setup(new Response(null, { status: 500 })).client.get('/x'));
    expect(error.message).toBe('Unrecognized server response. Please try again later.');
  });
});

describe('anything else', () => {
  it('answers Unknown error. when the network fails', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('fetch failed')));
    const error = await rejection(client.get('/x'));
    expect(error.message).toBe('Unknown error.');
    expect(error.status).toBeNull();
  });

  it('answers Unknown error. when the token cannot be read', async () => {
    const client = createApiClient({
      fetch: () => Promise.resolve(json(200, {})),
      getToken: () => Promise.reject(new Error('expired')),
    });
    expect((await rejection(client.get('/x'))).message).toBe('Unknown error.');
  });
});

describe('messages', () => {
  it('are the catalogue texts', () => {
    expect(apiErrorMessages).toEqual({
      fallback: 'Unable to process this request at this time.',
      unrecognized: 'Unrecognized server response. Please try again later.',
      unknown: 'Unknown error.',
    });
  });

  it('ignore blank strings and non-objects', () => {
    expect(messageFromBody({ error: { message: ' ' }, message: 'Used' })).toBe('Used');
    expect(messageFromBody(['x'])).toBe('Unable to process this request at this time.');
    expect(messageFromBody('text')).toBe('Unable to process this request at this time.');
  });

  it('errorMessage shows API messages and hides others', () => {
    expect(errorMessage(new ApiError('Shown', 400))).toBe('Shown');
    expect(errorMessage(new Error('internal detail'))).toBe('Unknown error.');
  });
});
