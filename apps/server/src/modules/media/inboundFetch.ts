import sharp from 'sharp';
import { GuardedFetchError, isRetryableStatus, type GuardedFetch, type GuardedResponse } from '../../platform/net/guardedFetch.js';

/** The largest inbound attachment kept (carriers allow 5 MB MMS at most). */
export const INBOUND_MEDIA_MAX_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** The kinds of attachment kept; anything else (a vCard, a PDF) keeps the carrier's URL. */
const keptTypes = /^(image|video|audio)\/[a-z0-9.+-]+$/;

export class MediaFetchError extends Error {
  constructor(
    message: string,
    /** Worth trying again later: the carrier answered 5xx or 429, or not at all. */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MediaFetchError';
  }
}

export interface FetchedMedia {
  bytes: Buffer;
  contentType: string;
}

export interface DownloadOptions {
  /** The guarded fetcher, with the operator's allowed hosts (docs/media.md#fetching-urls). */
  fetch: GuardedFetch;
  /** An Authorization header value (Twilio's media needs basic auth with the account SID and token). */
  authorization?: string | null;
  maxBytes?: number;
  timeoutMs?: number;
}

/** What a fetch that got no answer means for an attachment: refused by the guard or too large is final. */
function fetchFailure(error: unknown, maxBytes: number): MediaFetchError {
  if (!(error instanceof GuardedFetchError)) return new MediaFetchError(`no answer: ${error instanceof Error ? error.message : String(error)}`, true);
  if (error.kind === 'too-large') return new MediaFetchError(`larger than ${String(maxBytes)} bytes`, false);
  return new MediaFetchError(error.retryable ? `no answer: ${error.message}` : error.message, error.retryable);
}

/**
 * Downloads one attachment through the guarded fetcher: public addresses only (or hosts the operator
 * allows), redirects followed and checked (Twilio answers with one to its storage; the Authorization header
 * is dropped when a redirect leaves the origin), at most `maxBytes`, an image, video or audio type. An
 * image's type is taken from its bytes when they say.
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<FetchedMedia> {
  const maxBytes = options.maxBytes ?? INBOUND_MEDIA_MAX_BYTES;
  let response: GuardedResponse;
  try {
    response = await options.fetch(url, {
      headers: options.authorization ? { authorization: options.authorization } : {},
      maxBytes,
      timeoutMs: options.timeoutMs ?? FETCH_TIMEOUT_MS,
    });
  } catch (error) {
    throw fetchFailure(error, maxBytes);
  }
  if (response.status < 200 || response.status > 299) {
    throw new MediaFetchError(`answered HTTP ${String(response.status)}`, isRetryableStatus(response.status));
  }
  const headerType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!keptTypes.test(headerType)) {
    throw new MediaFetchError(`not an image, video or audio file (${headerType || 'no type'})`, false);
  }
  const bytes = response.body;
  return { bytes, contentType: headerType.startsWith('image/') ? await imageTypeOf(bytes, headerType) : headerType };
}

const sniffedTypes: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
};

async function imageTypeOf(bytes: Buffer, declared: string): Promise<string> {
  try {
    const { format } = await sharp(bytes).metadata();
    return sniffedTypes[format] ?? declared;
  } catch {
    return declared;
  }
}

/** HTTP basic credentials as a header value. */
export const basicAuthorization = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function lastSegment(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/** The file name of an attachment: the carrier's last path segment with an extension for its type. */
export function inboundFilename(url: string, contentType: string, index: number): string {
  const subtype = contentType.split('/')[1] ?? 'bin';
  const extension = subtype === 'jpeg' ? 'jpg' : subtype.replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin';
  const base = lastSegment(url).replace(/[^\w.-]/g, '').slice(0, 100);
  if (base === '') return `attachment-${String(index + 1)}.${extension}`;
  return /\.[a-z0-9]{2,5}$/i.test(base) ? base : `${base}.${extension}`;
}
