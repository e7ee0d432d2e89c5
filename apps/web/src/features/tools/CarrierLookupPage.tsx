import { formatPhoneNumber, type CarrierLookup } from '@parley/shared';
import type { PageProps } from '../../app/pageProps';
import { AnswerCard } from './AnswerCard';
import { LookupPage } from './LookupPage';
import { carrierText, lineTypeText, lookupSourceText } from './lookupTexts';

/** /tools/carrierlookup: a number's line type and carrier. */
export const CarrierLookupPage = ({ title }: PageProps) => (
  <LookupPage<CarrierLookup>
    title={title}
    kind="carrier"
    numberLabel="Mobile"
    intro="Find whether a number is a mobile, a landline, VoIP or toll-free, and which carrier serves it."
    showAnswer={(answer) => (
      <AnswerCard
        rows={[
          ['Number', formatPhoneNumber(answer.number)],
          ['Type', lineTypeText(answer)],
          ['Carrier', carrierText(answer)],
        ]}
        footnote={lookupSourceText(answer)}
      />
    )}
  />
);
