import type { InboundMailAuthentication } from '../../../platform/db/schema/index.js';

/** A parsed mail's header lines, as mailparser gives them. */
export interface HeaderLine {
  key: string;
  line: string;
}

const valueOf = (line: string): string => line.slice(line.indexOf(':') + 1).replace(/\s+/g, ' ').trim();

/**
 * What the mail says of its own authentication (docs/integrations.md, "What is verified"): the
 * `Authentication-Results` and `Received-SPF` headers as they arrived and the results read from them, with
 * the connection as this side saw it. Nothing here is checked against DNS: a sender can write these headers
 * itself, so they are trustworthy only when the operator's own mail server in front added them.
 */
export function recordAuthentication(headerLines: readonly HeaderLine[], connection: { remoteAddress?: string; helo?: string; mailFrom?: string }): InboundMailAuthentication {
  const results = headerLines.filter((h) => h.key === 'authentication-results').map((h) => valueOf(h.line));
  const receivedSpf = headerLines.filter((h) => h.key === 'received-spf').map((h) => valueOf(h.line));
  const spf = /\bspf=([a-z]+)/i.exec(results.join(' '))?.[1] ?? /^([a-z]+)/i.exec(receivedSpf[0] ?? '')?.[1];
  const dkim = /\bdkim=([a-z]+)/i.exec(results.join(' '))?.[1];
  return {
    ...(connection.remoteAddress === undefined ? {} : { remoteAddress: connection.remoteAddress }),
    ...(connection.helo === undefined || connection.helo === '' ? {} : { helo: connection.helo }),
    ...(connection.mailFrom === undefined || connection.mailFrom === '' ? {} : { mailFrom: connection.mailFrom }),
    ...(results.length === 0 ? {} : { authenticationResults: results.slice(0, 5) }),
    ...(receivedSpf.length === 0 ? {} : { receivedSpf: receivedSpf.slice(0, 5) }),
    ...(spf === undefined ? {} : { spf: spf.toLowerCase() }),
    ...(dkim === undefined ? {} : { dkim: dkim.toLowerCase() }),
  };
}
