import type { FastifyReply } from 'fastify';
import { scriptlessPagePolicy } from '../../../platform/http/securityHeaders.js';

/**
 * Answers with one of the issuer's pages: never cached, no scripts, no framing, no referrer (links carry
 * tokens). `formTargets` are other origins a form's submission may end on: browsers apply form-action to
 * the redirects after the POST too, and a sign-in ends on the web app's callback.
 */
export function html(reply: FastifyReply, status: number, body: string, formTargets: readonly string[] = []): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', scriptlessPagePolicy(formTargets))
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(body);
}

/** A field of a parsed form (at most 1 KiB), or '' when absent. */
export function formField(body: unknown, name: string): string {
  if (body === null || typeof body !== 'object') return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 1024) : '';
}
