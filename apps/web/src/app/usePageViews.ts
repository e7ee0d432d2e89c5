import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useConfig } from './configContext';
import { pageViewAction, performPageViewAction } from './pageViews';

/** Records every route change to the sink the server configured. */
export const usePageViews = (): void => {
  const { pathname } = useLocation();
  const { pageViews } = useConfig();
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    // Effects can run twice for one change (strict mode); a path is one view until it changes.
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    // Only the path: query strings can carry personal data (sign-up passes email and mobile).
    performPageViewAction(pageViewAction(pageViews, pathname, new Date()), {
      info: (line) => {
        console.info(line);
      },
      sendBeacon: typeof navigator.sendBeacon === 'function' ? navigator.sendBeacon.bind(navigator) : undefined,
    });
  }, [pathname, pageViews]);
};
