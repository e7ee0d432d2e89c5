import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context.js';
import { RateLimiter } from '../../identity/index.js';
import { formField, html } from '../../identity/index.js';
import { optInFormPage, optInNotFoundPage, optInRequestedPage } from '../optInPage.js';
import { requestOptIn } from '../optInRequest.js';
import { findPublicTemplate, type PublicTemplate } from '../publicTemplates.js';

/** Sign-up attempts (valid or not) per client address and window, in this process. */
export const OPT_IN_ATTEMPTS_PER_CLIENT = 10;
export const OPT_IN_RATE_WINDOW_MS = 15 * 60_000;

export const TOO_MANY_OPT_IN_ATTEMPTS = 'Too many sign-up attempts. Wait a few minutes and try again.';
export const OPT_IN_TOO_MANY_TEXTS =
  'We have texted this number several times today already. Reply YES to one of those texts, or try again tomorrow.';
export const OPT_IN_NOT_SENDABLE =
  'We could not send a text message to this number. If you once replied STOP to our messages, text START to us first, then try again.';

const FORM = 'application/x-www-form-urlencoded';

/** The public page of an OptIn template (docs/optIn.md: `{base}/v1/clients/optin/{templateId}`). */
export const optInPath = (templateId: string): string => `/v1/clients/optin/${templateId}`;

const params = z.object({ templateId: z.string() });

/**
 * The opt-in page: GET shows the form, POST (a browser's form) signs the number up, to be confirmed by the
 * person's reply (modules/messaging/optInConfirmation.ts). Public: the person has no account of ours. Unknown ids,
 * templates of another type or without a list, and closed accounts answer the same 404 page.
 */
export const clientRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const attempts = new RateLimiter(OPT_IN_ATTEMPTS_PER_CLIENT, OPT_IN_RATE_WINDOW_MS);

  // Scoped to this plugin: the rest of the API takes JSON only.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

  const load = async (templateId: string): Promise<{ page: PublicTemplate; listId: string } | null> => {
    const page = await findPublicTemplate(ctx.database.db, templateId, 'OptIn');
    const listId = page?.template.optInListId ?? null;
    return page === null || listId === null ? null : { page, listId };
  };
  const notFoundPage = (reply: FastifyReply) => html(reply, 404, optInNotFoundPage());
  const route = { schema: { hide: true, params }, config: { permission: 'public' as const } };

  app.get('/clients/optin/:templateId', route, async (request, reply) => {
    const found = await load(request.params.templateId);
    if (found === null) return notFoundPage(reply);
    const { account } = found.page;
    return html(reply, 200, optInFormPage({ accountName: account.name, action: optInPath(found.page.template.id), defaultCountry: account.defaultCountry }));
  });

  app.post('/clients/optin/:templateId', route, async (request, reply) => {
    const limited = !attempts.take(request.ip);
    const found = await load(request.params.templateId);
    if (found === null) return notFoundPage(reply);
    const { page, listId } = found;
    const number = formField(request.body, 'number').slice(0, 40);
    const country = formField(request.body, 'country').slice(0, 8);
    const form = (status: number, error: string) =>
      html(
        reply,
        status,
        optInFormPage({ accountName: page.account.name, action: optInPath(page.template.id), defaultCountry: page.account.defaultCountry, country, number, error }),
      );
    if (limited) return form(429, TOO_MANY_OPT_IN_ATTEMPTS);

    const outcome = await requestOptIn(ctx.database.db, { page, listId, number, country, address: request.ip });
    request.log.info({ templateId: page.template.id, outcome: outcome.kind }, 'opt-in page sign-up');
    switch (outcome.kind) {
      case 'requested':
        return html(reply, 200, optInRequestedPage(page.account.name, outcome.number, outcome.heldForQuietHours));
      case 'alreadyOptedIn':
        return html(reply, 200, optInRequestedPage(page.account.name, outcome.number));
      case 'invalidNumber':
        return form(400, outcome.message);
      case 'tooManyRequests':
        return form(429, OPT_IN_TOO_MANY_TEXTS);
      case 'notSendable':
        request.log.info({ templateId: page.template.id, reason: outcome.reason }, 'opt-in confirmation request not sent');
        return form(409, OPT_IN_NOT_SENDABLE);
    }
  });
  return Promise.resolve();
};
