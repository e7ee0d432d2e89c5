import { lineTypeLabels, NAME_UNAVAILABLE, NO_NAME_DATA, type CarrierLookup, type LookupSettings, type NameLookup, type NumberLookupKind } from '@parley/shared';

/** What the page says before a lookup: who answers, and what it costs (docs/tools.md). */
export function lookupPriceText(settings: LookupSettings, kind: NumberLookupKind): string {
  switch (settings.provider) {
    case 'offline':
      return kind === 'carrier'
        ? "Lookups here read the number's range and are free. A number moved to another carrier shows the carrier its range was first given to."
        : 'No lookup provider is set up here, so names are known only for numbers of the simulated network. Free.';
    case 'twilio':
      return `Each lookup costs $${settings.prices[kind]}, taken from the account's balance. Looking up the same number again within ${String(settings.cacheDays)} days is free.`;
  }
}

/** Where an answer came from and what it cost, under the result. */
export function lookupSourceText(answer: CarrierLookup | NameLookup): string {
  const charged = answer.charged === '0.0000' ? 'no charge' : `charged $${answer.charged}`;
  switch (answer.source) {
    case 'offline':
      return "From the number's range data; no charge.";
    case 'simulator':
      return 'Answered by the simulated network; no charge.';
    case 'twilio':
      return answer.cached ? `From a lookup of ${answer.lookedUpAt.slice(0, 10)}; ${charged}.` : `Looked up just now; ${charged}.`;
  }
}

export const lineTypeText = (answer: CarrierLookup): string => lineTypeLabels[answer.type];

export const carrierText = (answer: CarrierLookup): string => answer.carrier ?? 'Not known';

/** The name, or the spec's words when there is none. */
export const nameText = (answer: NameLookup): string => answer.name ?? NAME_UNAVAILABLE;

/** The suggestions' heading text when there are none. */
export const noSuggestionsText = NO_NAME_DATA;
