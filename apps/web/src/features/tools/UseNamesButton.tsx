import Button from '@mui/material/Button';
import { CONTACT_LIST_MAX_LIMIT, type Contact, type NameSuggestion } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { contactWithNumber, suggestionName, namesSavedText, type NamesSaved } from './contactNames';

export interface UseNamesButtonProps {
  accountId: string;
  number: string;
  country: string;
  names: NameSuggestion;
}

/**
 * "Use these names": the suggested first and last name go onto the account's contact with the number
 * looked up, or onto a new contact with it when the account has none (docs/tools.md, "Names").
 */
export const UseNamesButton = ({ accountId, number, country, names }: UseNamesButtonProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const base = `/v1/accounts/${accountId}/contacts`;
  const save = useMutation({
    mutationFn: async (): Promise<NamesSaved> => {
      const found = await api.get<{ data: Contact[] }>(base, { query: { mobile: number, limit: String(CONTACT_LIST_MAX_LIMIT) } });
      const existing = contactWithNumber(found.data, number);
      const name = suggestionName(names);
      if (existing === null) {
        await api.post(base, { firstName: names.firstName, lastName: names.lastName, mobile: { number, country } });
        return { kind: 'created', name };
      }
      await api.put(`${base}/${existing.id}`, { firstName: names.firstName, lastName: names.lastName });
      return { kind: 'renamed', name };
    },
    onSuccess: async (outcome) => {
      snackbar.show(namesSavedText(outcome));
      await queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'contacts'] });
    },
    onError: (error) => {
      snackbar.show(errorMessage(error));
    },
  });
  return (
    <Button size="small" disabled={save.isPending} onClick={() => {
        save.mutate();
      }} aria-label={`Use these names: ${suggestionName(names)}`}>
      Use these names
    </Button>
  );
};
