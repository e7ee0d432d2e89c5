import type { z } from 'zod';

/** The exact messages of the error catalogue. */
export const apiErrorMessages = {
  fallback: 'Unable to process this request at this time.',
  unrecognized: 'Unrecognized server response. Please try again later.',
  unknown: 'Unknown error.',
} as const;

export class ApiError extends Error {
  /** HTTP status, or null when no answer arrived. */
  readonly status: number | null;
  /** The `error.code` of the answer, when it carried one. */
  readonly code: string | null;

  constructor(message: string, status: number | null = null, code: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** List filters go in the query string; empty values are left out. */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Extra request headers (an Idempotency-Key); the client's own Accept, Authorization and Content-Type win. */
  headers?: Record<string, string>;
  /** Checks the shape of a successful answer. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** Called on 401 and 403, before the call rejects. */
  onUnauthorized?: (status: number) => void;
}

export interface ApiClient {
  request: <T = unknown>(path: string, options?: RequestOptions<T>) => Promise<T>;
  get: <T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) => Promise<T>;
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method'>) => Promise<T>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Picks the message of a failed answer: error.message, error.description, message, description. */
export const messageFromBody = (body: unknown): string => {
  if (!isRecord(body)) return apiErrorMessages.fallback;
  const nested = isRecord(body.error) ? body.error : {};
  return (
    nonEmptyString(nested.message) ??
    nonEmptyString(nested.description) ??
    nonEmptyString(body.message) ??
    nonEmptyString(body.description) ??
    apiErrorMessages.fallback
  );
};

const isJsonContentType = (response: Response): boolean => {
  const type = response.headers.get('content-type') ?? '';
  return /^application\/([\w.+-]+\+)?json\b/i.test(type);
};

const buildUrl = (baseUrl: string, path: string, query: Record<string, QueryValue> | undefined): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search === '' ? '' : `${path.includes('?') ? '&' : '?'}${search}`}`;
};

const readSuccess = async (response: Response): Promise<unknown> => {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!isJsonContentType(response)) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(apiErrorMessages.unrecognized, response.status);
  }
};

const failure = async (response: Response): Promise<ApiError> => {
  let body: unknown;
  try {
    body = JSON.parse(await response.text()) as unknown;
  } catch {
    return new ApiError(apiErrorMessages.unrecognized, response.status);
  }
  const nested = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof nested.code === 'string' ? nested.code : null;
  return new ApiError(messageFromBody(body), response.status, code);
};

const encodeBody = (body: unknown): { body?: BodyInit; contentType?: string } => {
  if (body === undefined) return {};
  if (body instanceof FormData) return { body };
  // A file sent as it is (the contact import uploads the CSV raw).
  if (body instanceof Blob) return { body, contentType: body.type || 'application/octet-stream' };
  return { body: JSON.stringify(body), contentType: 'application/json' };
};

/** A fetch client that answers as the error catalogue says. */
export const createApiClient = (options: ApiClientOptions = {}): ApiClient => {
  const baseUrl = options.baseUrl ?? '';

  const request = async <T = unknown>(path: string, init: RequestOptions<T> = {}): Promise<T> => {
    try {
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const headers = new Headers(init.headers);
      headers.set('Accept', 'application/json');
      const token = await options.getToken?.();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const encoded = encodeBody(init.body);
      if (encoded.contentType !== undefined) headers.set('Content-Type', encoded.contentType);

      const response = await fetchImpl(buildUrl(baseUrl, path, init.query), {
        method: init.method ?? 'GET',
        headers,
        body: encoded.body ?? null,
        signal: init.signal ?? null,
      });

      if (response.ok) {
        const data = await readSuccess(response);
        if (init.schema === undefined) return data as T;
        const parsed = init.schema.safeParse(data);
        if (!parsed.success) throw new ApiError(apiErrorMessages.unrecognized, response.status);
        return parsed.data;
      }
      const error = await failure(response);
      if (response.status === 401 || response.status === 403) options.onUnauthorized?.(response.status);
      throw error;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(apiErrorMessages.unknown);
    }
  };

  return {
    request,
    get: (path, rest) => request(path, { ...rest, method: 'GET' }),
    post: (path, body, rest) => request(path, { ...rest, method: 'POST', body }),
    put: (path, body, rest) => request(path, { ...rest, method: 'PUT', body }),
    delete: (path, rest) => request(path, { ...rest, method: 'DELETE' }),
  };
};

/** The message to show for any failure, API or not. */
export const errorMessage = (error: unknown): string =>
  error instanceof ApiError ? error.message : apiErrorMessages.unknown;
