import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '../../api/apiContext';

export const SENT_FEEDBACK_MS = 5000;

/** GET /v1/profile/resendverification; `sent` stays true for 5 seconds after success. */
export function useResendVerification() {
  const api = useApiClient();
  const [sent, setSent] = useState(false);
  const resend = useMutation({
    mutationFn: () => api.get('/v1/profile/resendverification'),
    onSuccess: () => {
      setSent(true);
    },
  });
  useEffect(() => {
    if (!sent) return;
    const timer = window.setTimeout(() => {
      setSent(false);
    }, SENT_FEEDBACK_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [sent]);
  return { resend, sent };
}
