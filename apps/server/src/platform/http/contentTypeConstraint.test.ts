import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { contentTypeConstraint, mediaTypeOf } from './contentTypeConstraint.js';

describe('mediaTypeOf', () => {
  it('is the media type in lower case, without parameters', () => {
    expect(mediaTypeOf('Text/CSV; charset=utf-8')).toBe('text/csv');
    expect(mediaTypeOf(' application/json ')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBe('');
    expect(mediaTypeOf('')).toBe('');
  });
});

describe('the contentType route constraint', () => {
  async function app() {
    const instance = Fastify();
    instance.addConstraintStrategy(contentTypeConstraint);
    instance.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    instance.post('/things', () => ({ route: 'json' }));
    instance.post('/things', { constraints: { contentType: 'text/csv' } }, () => ({ route: 'csv' }));
    await instance.ready();
    return instance;
  }
  const post = async (contentType: string | undefined, payload: string) => {
    const instance = await app();
    try {
      const res = await instance.inject({ method: 'POST', url: '/things', payload, headers: contentType === undefined ? {} : { 'content-type': contentType } });
      return { status: res.statusCode, body: res.json<unknown>() };
    } finally {
      await instance.close();
    }
  };

  it('sends the media type it names to its route, whatever the parameters and case', async () => {
    expect(await post('text/csv', 'a\n1\n')).toEqual({ status: 200, body: { route: 'csv' } });
    expect(await post('TEXT/CSV; charset=utf-8', 'a\n1\n')).toEqual({ status: 200, body: { route: 'csv' } });
  });

  it('leaves every other request to the route without the constraint', async () => {
    expect(await post('application/json', '{}')).toEqual({ status: 200, body: { route: 'json' } });
    expect((await post('application/xml', '<a/>')).status).toBe(415);
  });
});
