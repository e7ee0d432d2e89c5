import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loadCarrierConnection } from '../connections.js';
import { TwilioWebhookError, twilioWebhookUrl, verifyTwilioSignature, type TwilioParams } from '../twilio/twilioWebhooks.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { existingSecretsCipher } from '../../../platform/secrets/keyring.js';

/*
 * What every Twilio webhook route shares (messages here, calls in the calls module): the form body, the
 * auth token of the connection a URL names, and the signature check (docs/security.md).
 */

export const TWILIO_FORM = 'application/x-www-form-urlencoded';
export const TWILIO_SIGNATURE_REFUSED_MESSAGE = 'The request does not carry a valid Twilio signature';

// Optional: a request without a form body is refused as unsigned (401), like every other.
export const twilioParamsSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullish();

/** A form body as Twilio's signature covers it: a repeated name gives every value. */
function formParams(body: string): TwilioParams {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/** Parses Twilio's form bodies, in the plugin it is called in only (the rest of the API takes JSON). */
export function acceptTwilioForms(app: FastifyInstance): void {
  app.addContentTypeParser(TWILIO_FORM, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, formParams(typeof body === 'string' ? body : body.toString('utf8')));
  });
}

export interface TwilioSigning {
  /** The deployment's auth token; 404 when the deployment has no Twilio account. */
  deploymentToken: () => Promise<string>;
  /** The auth token of an account's own Twilio connection; 404 when there is none by that id. */
  connectionToken: (settingsId: string) => Promise<string>;
  /** The form parameters of a request signed with `authToken`; 401 for every other, before anything is read. */
  verified: (request: FastifyRequest, authToken: string, body: TwilioParams | null | undefined) => TwilioParams;
}

export function twilioSigning(ctx: Pick<AppContext, 'config' | 'database'>): TwilioSigning {
  const { config } = ctx;
  const refused = (): AppError => new AppError(401, 'unauthorized', TWILIO_SIGNATURE_REFUSED_MESSAGE);
  return {
    deploymentToken() {
      const twilio = config.carriers.twilio;
      if (twilio === null) return Promise.reject(notFound('The Twilio carrier of this deployment'));
      return Promise.resolve(twilio.authToken);
    },
    async connectionToken(settingsId) {
      const missing = notFound('The Twilio connection');
      const cipher = await existingSecretsCipher(config.secrets);
      if (cipher === null) throw missing;
      const connection = await loadCarrierConnection(ctx.database.db, cipher, settingsId);
      if (connection?.settings.carrier !== 'twilio') throw missing;
      return connection.secret;
    },
    verified(request, authToken, body) {
      const params = body ?? {};
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== TWILIO_FORM) throw refused();
      const signature = request.headers['x-twilio-signature'];
      const ok = verifyTwilioSignature({
        url: twilioWebhookUrl(config.publicUrl, request.url),
        params,
        signature: typeof signature === 'string' ? signature : undefined,
        authToken,
      });
      if (!ok) throw refused();
      return params;
    },
  };
}

/** A signed webhook that cannot be read (a missing field): 400. */
export function readableTwilio<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TwilioWebhookError) throw new AppError(400, 'bad_request', error.message);
    throw error;
  }
}
