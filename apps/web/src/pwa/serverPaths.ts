/** Paths the server answers itself; the app never renders them, so the service worker must let them through. */
export const serverPaths = ['/v1', '/socket.io', '/healthz', '/readyz', '/docs', '/oidc', '/dev'] as const;

/** Matches the path itself and anything below it, but not a longer name (`/dev` is not `/devices`). */
export const serverPathPattern = (path: string): string => `^${path.replaceAll('.', '\\.')}(?:[/?#]|$)`;

/** Patterns for the service worker's navigation fallback denylist (matched against path and query). */
export const navigationFallbackDenylist = (): RegExp[] => serverPaths.map((path) => new RegExp(serverPathPattern(path)));

export const isServerPath = (pathAndQuery: string): boolean =>
  navigationFallbackDenylist().some((pattern) => pattern.test(pathAndQuery));
