import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { can, formatPhoneNumber, type NameLookup } from '@parley/shared';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { AnswerCard } from './AnswerCard';
import { LookupPage } from './LookupPage';
import { lookupSourceText, nameText, noSuggestionsText } from './lookupTexts';
import { UseNamesButton } from './UseNamesButton';

/** The suggested names; people who may edit contacts can put one on the number's contact. */
const Suggestions = ({ answer }: { answer: NameLookup }) => {
  const { account } = useSession();
  const editor = account !== null && can(account.user.role, 'contacts.write') ? account.id : null;
  if (answer.suggestions.length === 0) return <Typography sx={{ mt: 2 }}>{noSuggestionsText}</Typography>;
  return (
    <Table size="small" sx={{ mt: 2 }} aria-label="Suggested names">
      <TableHead>
        <TableRow>
          <TableCell>First Name</TableCell>
          <TableCell>Last Name</TableCell>
          {editor !== null && <TableCell />}
        </TableRow>
      </TableHead>
      <TableBody>
        {answer.suggestions.map((s) => (
          <TableRow key={`${s.firstName}|${s.lastName}`}>
            <TableCell>{s.firstName}</TableCell>
            <TableCell>{s.lastName}</TableCell>
            {editor !== null && (
              <TableCell align="right">
                <UseNamesButton accountId={editor} number={answer.number} country={answer.country} names={s} />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

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
