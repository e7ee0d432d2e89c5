import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { ApiError, apiErrorMessages, messageFromBody } from '../../api/client';

/** GET a PNG with the user's token (an img tag cannot send it); a refusal throws the API's own message. */
export async function fetchPng(path: string, token: string | undefined, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Authorization: `Bearer ${token ?? ''}`, Accept: 'image/png, application/json' }, signal: signal ?? null });
  } catch {
    throw new ApiError(apiErrorMessages.unknown);
  }
  if (response.ok) return response.blob();
  let body: unknown;
  try {
    body = JSON.parse(await response.text()) as unknown;
  } catch {
    throw new ApiError(apiErrorMessages.unrecognized, response.status);
  }
  throw new ApiError(messageFromBody(body), response.status);
}

export interface ScreenshotImage {
  /** An object URL of the last PNG answered (kept while the next one loads). */
  src: string | null;
  loading: boolean;
  error: unknown;
  /** The PNG itself, for a download at the scale shown. */
  blob: Blob | undefined;
}

/** The screenshot at `path` (null: nothing to ask for yet), shown through an object URL revoked when it changes. */
export function useScreenshotImage(path: string | null): ScreenshotImage {
  const auth = useAuth();
  const token = auth.user?.access_token;
  const image = useQuery({
    queryKey: ['screenshot', path],
    enabled: path !== null && token !== undefined,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
    queryFn: ({ signal }) => fetchPng(path ?? '', token, signal),
  });
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (image.data === undefined) return undefined;
    const created = URL.createObjectURL(image.data);
    setSrc(created);
    return () => {
      URL.revokeObjectURL(created);
    };
  }, [image.data]);
  return { src, loading: image.isFetching, error: image.error, blob: image.data };
}

/** Downloads the PNG at `path`. */
export function useFetchPng(): (path: string) => Promise<Blob> {
  const auth = useAuth();
  const token = auth.user?.access_token;
  return (path) => fetchPng(path, token);
}
