import { useCallback, useEffect, useState } from 'react';

/**
 * The width of an element, kept current as it resizes: a ref to put on it and its width in CSS pixels
 * (null until it is on the page). The first measure runs as the element mounts, before the browser paints.
 */
export function useElementWidth(): [(element: HTMLElement | null) => void, number | null] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState<number | null>(null);
  const ref = useCallback((next: HTMLElement | null) => {
    setElement(next);
    if (next !== null) setWidth(next.getBoundingClientRect().width);
  }, []);
  useEffect(() => {
    if (element === null) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry !== undefined) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [element]);
  return [ref, width];
}
