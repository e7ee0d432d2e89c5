import { GridFilterInputValue, getGridBooleanOperators, getGridStringOperators, type GridFilterOperator } from '@mui/x-data-grid';
import type { Contact } from '@parley/shared';

// The filters the contacts table's columns offer; the server applies them.

/** The server answers the filter; the grid only collects it. */
const serverSide = (): null => null;

/** Text columns match anywhere in the field on the server. */
export const containsOnly = getGridStringOperators().filter((op) => op.value === 'contains');

export const tagOperators: GridFilterOperator<Contact>[] = [
  { label: 'has all of', value: 'hasAll', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
];

export const attributeOperators: GridFilterOperator<Contact>[] = [
  { label: 'equals', value: 'equals', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
  { label: 'does not equal', value: 'notEquals', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
  { label: 'contains', value: 'contains', getApplyFilterFn: serverSide, InputComponent: GridFilterInputValue },
];

export const booleanOperators = getGridBooleanOperators();
