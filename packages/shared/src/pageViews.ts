/** Where the web app records page views (PAGE_VIEWS_SINK). No schema library here: the first screen loads it. */
export const pageViewSinks = ['off', 'console', 'beacon'] as const;
export type PageViewSink = (typeof pageViewSinks)[number];
