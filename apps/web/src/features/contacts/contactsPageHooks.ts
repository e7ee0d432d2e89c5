import type { Contact } from '@parley/shared';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The Create Contact quick action arrives with ?new=1 (also when the page is open already): `open` runs
 * when the person may add contacts, then the flag is dropped so a reload does not open it again.
 */
export function useCreateContactParam(canWrite: boolean, open: () => void): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const wantsNew = searchParams.get('new') === '1';
  useEffect(() => {
    if (!wantsNew) return;
    if (canWrite) open();
    setSearchParams({}, { replace: true });
    // `open` is a fresh function each render; the flag alone says when to act.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsNew, canWrite, setSearchParams]);
}

/** Every contact the table has shown: a selection may span pages, and Send Message needs the contacts. */
export function useSeenContacts(pageRows: readonly Contact[] | undefined): ReadonlyMap<string, Contact> {
  const [seen, setSeen] = useState<ReadonlyMap<string, Contact>>(new Map());
  useEffect(() => {
    if (pageRows === undefined || pageRows.length === 0) return;
    setSeen((current) => new Map([...current, ...pageRows.map((c): [string, Contact] => [c.id, c])]));
  }, [pageRows]);
  return seen;
}
