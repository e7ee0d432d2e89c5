import { ApiError, apiErrorMessages } from './client';

/**
 * The record a create made. Creating a contact or a template answers it in a list of one
 * (`{ success, data: [record] }`), as the hosted product's API does; an empty list is no answer we know.
 */
export function createdRecord<T>(answer: { success?: boolean; data: readonly T[] }): T {
  const [record] = answer.data;
  if (record === undefined) throw new ApiError(apiErrorMessages.unrecognized);
  return record;
}
