/** The web route of a conversation (cross-team contract: /conversations/:conversationId). */
export const conversationPath = (conversationId: string): string => `/conversations/${encodeURIComponent(conversationId)}`;

/** Added to a conversation's address when the send box should take the focus (a conversation just started). */
export const COMPOSE_PARAM = 'compose';

export const composePath = (conversationId: string): string => `${conversationPath(conversationId)}?${COMPOSE_PARAM}=1`;
