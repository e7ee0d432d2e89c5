import type { ShortenedText } from '@parley/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '../../api/apiContext';
import { useAccount } from '../../session/queries';

/** Waits this long after the last keystroke before asking the server for the shortened text. */
export const SHORTEN_PREVIEW_DEBOUNCE_MS = 400;
const HAS_URL = /https?:\/\/\S/i;

/**
 * The text as a send will have it when the account shortens links (Account.options.autoLinkShorten): the
 * server's preview (POST .../links/shorten, which makes no link), so the counts and price are those of the
 * message sent. Without an account, with the option off or no URL, the text itself.
 */
export function useShortenedText(accountId: string | null, text: string): string {
  const api = useApiClient();
  const account = useAccount(accountId);
  const on = accountId !== null && (account.data?.options.autoLinkShorten ?? null) !== null && HAS_URL.test(text);
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(text);
    }, SHORTEN_PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [text]);
  const preview = useQuery({
    queryKey: ['accounts', accountId ?? '', 'links', 'shorten', settled],
    enabled: on && HAS_URL.test(settled),
    queryFn: async ({ signal }) =>
      (await api.post<{ data: ShortenedText }>(`/v1/accounts/${accountId ?? ''}/links/shorten`, { text: settled }, { signal })).data,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  if (!on) return text;
  // Until the server has answered for the text as typed, the last answer stands in (its counts are close).
  return preview.data?.text ?? text;
}
