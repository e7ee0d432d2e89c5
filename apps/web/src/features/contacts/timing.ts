import { useEffect, useRef, useState } from 'react';

/** Contact fetches wait 500 ms after the last keystroke. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 500;
/** Tag suggestions are looked up at most every 200 ms. */
export const TAG_LOOKUP_THROTTLE_MS = 200;
/** The contact dialog saves 500 ms after Save. */
export const CONTACT_SAVE_DELAY_MS = 500;
/** The table refreshes 1 s after a multi-delete. */
export const REFRESH_AFTER_DELETE_MS = 1000;

/** The value once it has stopped changing for `ms`. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(value);
    }, ms);
    return () => {
      clearTimeout(timer);
    };
  }, [value, ms]);
  return settled;
}

/** The value at most once every `ms`: the first change at once, the latest at the end of each window. */
export function useThrottledValue<T>(value: T, ms: number): T {
  const [throttled, setThrottled] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + ms - Date.now();
    const timer = setTimeout(
      () => {
        last.current = Date.now();
        setThrottled(value);
      },
      Math.max(0, wait),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [value, ms]);
  return throttled;
}
