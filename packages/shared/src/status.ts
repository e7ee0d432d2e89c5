import { z } from 'zod';
import { pageViewSinks } from './pageViews.js';

/** What the web app learns from the server before it renders (GET /v1/config). */
export const clientConfigSchema = z
  .object({
    version: z.string(),
    embedded: z.boolean().describe('true when the server runs on the embedded database'),
    publicUrl: z.string().describe('the address of this deployment (PUBLIC_URL); sign-in returns there'),
    simulator: z.boolean().describe("true when the deployment's carriers include the simulator (virtual phones at /simulator)"),
    pageViews: z.object({
      sink: z.enum(pageViewSinks),
      url: z.string().nullable(),
    }),
    helpCenterUrl: z.string().nullable().describe("the help centre the account menu links to (HELP_CENTER_URL); null: no link"),
    payments: z
      .object({
        provider: z.enum(['sandbox', 'stripe']).describe('who takes cards and payments (PAYMENTS_PROVIDER)'),
        stripePublishableKey: z.string().nullable().describe("Stripe's publishable key the card form runs Stripe.js with; null with the sandbox"),
      })
      .describe("the payment provider, for the web app's card form"),
    realtime: z.object({
      path: z.string(),
      devAuth: z.boolean().describe('true when the explicit development sign-in for websockets is on'),
    }),
    auth: z
      .object({
        issuer: z.string().describe('the OpenID Connect issuer the web app signs in with'),
        clientId: z.string(),
        scopes: z.string().describe('space-separated scopes to request'),
        socialProviders: z
          .array(z.object({ id: z.string(), name: z.string() }))
          .describe('social sign-in offered by the embedded issuer ("Continue with <name>"); idp_hint=<id> on the authorization request goes straight there'),
      })
      .describe('how the web app signs in (authorization code with PKCE)'),
  })
  .meta({ id: 'ClientConfig' });

export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: z.enum(['ok', 'failing']),
      /** A write to the database commits (a full disk or a read-only standby fails it). */
      writes: z.enum(['ok', 'failing']),
      /** The file systems of DATA_DIR and of media on disk have room left. */
      disk: z.enum(['ok', 'low']),
      queue: z.enum(['ok', 'failing', 'not_started']),
    }),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;
