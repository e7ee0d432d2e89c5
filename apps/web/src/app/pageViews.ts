import type { ClientConfig } from '@parley/shared';

export type PageViewAction =
  | { kind: 'none' }
  | { kind: 'console'; line: string }
  | { kind: 'beacon'; url: string; body: string };

export interface PageView {
  path: string;
  at: string;
}

/** What to do with a page view, given the sink the server configured. */
export const pageViewAction = (
  settings: ClientConfig['pageViews'] | undefined,
  path: string,
  at: Date,
): PageViewAction => {
  const view: PageView = { path, at: at.toISOString() };
  switch (settings?.sink ?? 'off') {
    case 'off':
      return { kind: 'none' };
    case 'console':
      return { kind: 'console', line: JSON.stringify({ event: 'pageView', ...view }) };
    case 'beacon':
      if (settings?.url == null || settings.url === '') return { kind: 'none' };
      return { kind: 'beacon', url: settings.url, body: JSON.stringify(view) };
  }
};

export interface PageViewOutlets {
  info: (line: string) => void;
  sendBeacon: ((url: string, data: Blob) => boolean) | undefined;
}

export const performPageViewAction = (action: PageViewAction, outlets: PageViewOutlets): void => {
  switch (action.kind) {
    case 'none':
      return;
    case 'console':
      outlets.info(action.line);
      return;
    case 'beacon':
      outlets.sendBeacon?.(action.url, new Blob([action.body], { type: 'application/json' }));
      return;
  }
};
