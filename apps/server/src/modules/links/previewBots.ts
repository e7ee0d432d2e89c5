/**
 * User agents of the fetchers that open a link to draw its preview before (or without) a person doing so:
 * messaging apps, chat tools and crawlers. Their clicks are counted apart (docs/links.md, "Clicks").
 */
const PREVIEW_FETCHERS =
  /facebookexternalhit|facebookcatalog|meta-externalagent|whatsapp|twitterbot|slackbot|slack-imgproxy|telegrambot|discordbot|googlebot|google-pagerenderer|adsbot-google|bingbot|bingpreview|skypeuripreview|linkedinbot|pinterest|redditbot|embedly|applebot|iframely|vkshare|viber|snapchat|yandexbot|duckduckbot|baiduspider|mastodon|bitlybot|outbrain|w3c_validator|preview|crawler|spider|\bbot\b|headlesschrome/i;

/**
 * iMessage's link preview fetches as a desktop Safari with Facebook's crawler name, or with no product
 * at all ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1
 * Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0"); Android Messages as "Google-Safety" or
 * with no user agent. A request with no user agent is treated as a fetcher.
 */
export function isPreviewFetcher(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent.trim() === '') return true;
  return PREVIEW_FETCHERS.test(userAgent) || /google-safety|facebot/i.test(userAgent);
}
