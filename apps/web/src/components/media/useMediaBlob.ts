import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { useConfig } from '../../app/configContext';
import { accountMediaPath } from './mediaUrls';

export interface MediaSource {
  /** What an img src or a link may use: an object URL of the fetched blob, or a public address as it is. */
  src: string | null;
  loading: boolean;
  failed: boolean;
}

/**
 * 'Media is fetched as a blob from the media url'. The account's own files need the user's
 * token, which an img tag cannot send, so they are fetched here and shown through an object URL (revoked
 * when the component goes). Other addresses (a carrier's public URL, the simulator's pictures) load as they are.
 */
export const useMediaSource = (url: string): MediaSource => {
  const config = useConfig();
  const auth = useAuth();
  const token = auth.user?.access_token;
  const path = accountMediaPath(url, [config.publicUrl, window.location.origin]);
  const blob = useQuery({
    queryKey: ['media', path],
    enabled: path !== null && token !== undefined,
    // A stored file never changes; keep it while the page lives.
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const response = await fetch(path ?? '', { headers: { Authorization: `Bearer ${token ?? ''}` }, signal });
      if (!response.ok) throw new Error(`Media answered ${String(response.status)}`);
      return response.blob();
    },
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (blob.data === undefined) return undefined;
    const created = URL.createObjectURL(blob.data);
    setObjectUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setObjectUrl(null);
    };
  }, [blob.data]);
  if (path === null) return { src: url, loading: false, failed: false };
  return { src: objectUrl, loading: blob.isPending || (blob.isSuccess && objectUrl === null), failed: blob.isError };
};
