import sharp from 'sharp';

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
  /** An Authorization header value (Twilio's media needs basic auth with the account SID and token). */
  authorization?: string | null;
  maxBytes?: number;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new MediaFetchError(`larger than ${String(maxBytes)} bytes`, false);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * Downloads one attachment: redirects followed (Twilio answers with one to its storage; fetch drops the
 * Authorization header when the redirect leaves the origin), at most `maxBytes`, an image, video or audio
 * type. An image's type is taken from its bytes when they say.
 */
export async function downloadMedia(url: string, options: DownloadOptions = {}): Promise<FetchedMedia> {
  const maxBytes = options.maxBytes ?? INBOUND_MEDIA_MAX_BYTES;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      redirect: 'follow',
      headers: options.authorization ? { authorization: options.authorization } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new MediaFetchError(`no answer: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new MediaFetchError(`answered HTTP ${String(response.status)}`, response.status >= 500 || response.status === 429 || response.status === 408);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body.cancel();
    throw new MediaFetchError(`larger than ${String(maxBytes)} bytes`, false);
  }
  const headerType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!keptTypes.test(headerType)) {
    await response.body.cancel();
    throw new MediaFetchError(`not an image, video or audio file (${headerType || 'no type'})`, false);
  }
  const bytes = await readCapped(response.body, maxBytes);
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
