import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatPhoneNumber, type NameLookup } from '@parley/shared';
import type { PageProps } from '../../app/pageProps';
import { AnswerCard } from './AnswerCard';
import { LookupPage } from './LookupPage';
import { lookupSourceText, nameText, noSuggestionsText } from './lookupTexts';

const Suggestions = ({ answer }: { answer: NameLookup }) =>
  answer.suggestions.length === 0 ? (
    <Typography sx={{ mt: 2 }}>{noSuggestionsText}</Typography>
  ) : (
    <Table size="small" sx={{ mt: 2 }} aria-label="Suggested names">
      <TableHead>
        <TableRow>
          <TableCell>First Name</TableCell>
          <TableCell>Last Name</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {answer.suggestions.map((s) => (
          <TableRow key={`${s.firstName}|${s.lastName}`}>
            <TableCell>{s.firstName}</TableCell>
            <TableCell>{s.lastName}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );

/** /tools/namelookup: the caller name registered for a number, and the names it may stand for. */
export const NameLookupPage = ({ title }: PageProps) => (
  <LookupPage<NameLookup>
    title={title}
    kind="name"
    numberLabel="Number"
    intro="Find the caller name registered for a number, and the first and last names it may stand for."
    showAnswer={(answer) => (
      <AnswerCard rows={[['Number', formatPhoneNumber(answer.number)], ['Name', nameText(answer)]]} footnote={lookupSourceText(answer)}>
        <Suggestions answer={answer} />
      </AnswerCard>
    )}
  />
);
