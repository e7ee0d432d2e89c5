import { useAuth } from 'react-oidc-context';

/** Our own PDF (the sandbox's, GET /v1/accounts/{acc}/invoices/{id}/pdf) needs the user's token; Stripe's is public. */
export const isServerPdf = (url: string): boolean => url.startsWith('/v1/');

/**
 * Opens an invoice's PDF in a new tab: Stripe's address as it is; the server's fetched with the user's token
 * (a link cannot send it) and shown from an object URL. The tab is opened at the click, so no pop-up blocker
 * stops it, and given the PDF when it arrives.
 */
export const useOpenInvoicePdf = (): ((url: string) => Promise<void>) => {
  const auth = useAuth();
  return async (url: string) => {
    if (!isServerPdf(url)) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    const tab = window.open('', '_blank');
    const response = await fetch(url, { headers: { Authorization: `Bearer ${auth.user?.access_token ?? ''}`, Accept: 'application/pdf' } });
    if (!response.ok) {
      tab?.close();
      throw new Error(`The invoice PDF answered ${String(response.status)}`);
    }
    const objectUrl = URL.createObjectURL(await response.blob());
    if (tab === null) window.location.assign(objectUrl);
    else tab.location.href = objectUrl;
    // The tab has the document; the URL can go once it has loaded.
    setTimeout(() => {
      URL.revokeObjectURL(objectUrl);
    }, 60_000);
  };
};
