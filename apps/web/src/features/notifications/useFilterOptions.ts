import { useMemo } from 'react';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useGroups } from '../groups';
import { usePhoneNumbers } from '../phoneNumbers';
import type { FilterNames } from './notificationStatus';

export interface FilterOption {
  id: string;
  label: string;
}

export interface FilterOptions {
  groups: FilterOption[];
  phoneNumbers: FilterOption[];
  names: FilterNames;
  pending: boolean;
}

const nameIn = (options: FilterOption[], missing: string) => (id: string): string => options.find((o) => o.id === id)?.label ?? missing;

/** The account's groups and numbers a notification may be narrowed to, and their names for the table. */
export const useFilterOptions = (accountId: string): FilterOptions => {
  const groups = useGroups(accountId);
  const numbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  return useMemo(() => {
    const groupOptions = (groups.data?.data ?? []).map((g) => ({ id: g.id, label: g.name }));
    const numberOptions = (numbers.data ?? []).map((n) => ({
      id: n.id,
      label: n.name === '' ? display.phone(n.number) : `${display.phone(n.number)} (${n.name})`,
    }));
    return {
      groups: groupOptions,
      phoneNumbers: numberOptions,
      // A filter may name a group or number removed since: it still narrows, so it still shows.
      names: { group: nameIn(groupOptions, 'A removed group'), phoneNumber: nameIn(numberOptions, 'A released number') },
      pending: groups.isPending || numbers.isPending,
    };
  }, [groups.data, groups.isPending, numbers.data, numbers.isPending, display]);
};
