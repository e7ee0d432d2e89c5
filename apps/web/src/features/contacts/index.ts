export { TagsField } from './TagsField';
export { contactsQueryKey, useAttributeNames, useListOptions } from './contactsQueries';
export { readCsvFile } from './import/readCsvFile';
export { CONTACT_SEARCH_DEBOUNCE_MS, useDebouncedValue } from './timing';
