import {
  accountSupportSchema,
  formatMoney,
  messageFrequencySchema,
  planPricingSchema,
  questionnaireSchema,
  supportedCountries,
  trialDaysLeft,
  trialEndsAt,
  type Account,
  type AccountBilling,
  type AccountSummary,
  type Plan,
  type Role,
} from '@parley/shared';
import type { AccountWithPlan } from '../billing/index.js';
import type { AccountOfPrincipal } from './queries.js';
import type { PlanRow } from '../../platform/db/schema/index.js';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  const supported = supportedCountries.find((c) => c.code === code);
  if (supported) return supported.name;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function presentPlan(plan: PlanRow): Plan {
  return {
    id: plan.id,
    name: plan.name,
    price: formatMoney(plan.price),
    isTrial: plan.isTrial,
    pricing: planPricingSchema.parse(plan.pricing),
    maxConversationPeriod: plan.maxConversationPeriodDays,
  };
}

/**
 * The account entity as the given role sees it; `billing` (the card, subscription and auto top-up) only for
 * a role that may see billing, else null and those fields are left out.
 */
export function presentAccount({ account, plan }: AccountWithPlan, role: Role, billing: AccountBilling | null, now: Date = new Date()): Account {
  const options = isRecord(account.options) ? account.options : {};
  const support = accountSupportSchema.safeParse(account.support);
  const questionnaire = questionnaireSchema.safeParse(account.questionnaire);
  const frequency = messageFrequencySchema.safeParse(account.messageFrequency);
  const daysLeft = trialDaysLeft(account.createdAt, now);
  return {
    id: account.id,
    name: account.name,
    balance: formatMoney(account.balance),
    plan: presentPlan(plan),
    created: { at: account.createdAt.toISOString() },
    defaults: {
      country: { code: account.defaultCountry, name: countryName(account.defaultCountry) },
      messageFrequency: frequency.success ? frequency.data : null,
    },
    options: {
      verifyNumberType: options.verifyNumberType === true,
      universalMMS: options.universalMMS === true,
      contactTracking: options.contactTracking === true,
      autoLinkShorten: typeof options.autoLinkShorten === 'string' ? options.autoLinkShorten : null,
      ...(billing === null ? {} : { autotopup: billing.autotopup }),
    },
    quietHours: { enabled: account.quietHoursEnabled, start: account.quietHoursStart, end: account.quietHoursEnd },
    support: support.success ? support.data : {},
    questionnaire: questionnaire.success ? questionnaire.data : { messagingType: [], desiredIntegrations: [] },
    promoCode: account.promoCode,
    user: { role },
    ...(plan.isTrial ? { trial: { daysLeft, expired: daysLeft === 0, endsAt: trialEndsAt(account.createdAt).toISOString() } } : {}),
    ...(billing === null ? {} : { paymentSource: billing.paymentSource, subscription: billing.subscription }),
  };
}

/** A row of the account chooser. */
export function presentAccountSummary({ account, plan, role }: AccountOfPrincipal): AccountSummary {
  return {
    id: account.id,
    name: account.name,
    plan: { id: plan.id, name: plan.name, isTrial: plan.isTrial },
    created: { at: account.createdAt.toISOString() },
    user: { role },
  };
}
