import type { FastifyRequest } from 'fastify';
import { CONVERSATION_NOT_FOUND_MESSAGE } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import { AppError } from '../../../platform/errors.js';
import { conversationViewer, type ConversationViewer } from '../../messaging/index.js';

/** The account of the path and the one asking (their role, user and groups decide what they see). */
export function viewerOf(request: FastifyRequest): { accountId: string; viewer: ConversationViewer } {
  const membership = membershipOf(request);
  return { accountId: membership.accountId, viewer: conversationViewer(principalOf(request), membership) };
}

/** Another account's conversation, a malformed id and one hidden by its group all answer this. */
export const conversationNotFound = (): AppError => new AppError(404, 'not_found', CONVERSATION_NOT_FOUND_MESSAGE);
