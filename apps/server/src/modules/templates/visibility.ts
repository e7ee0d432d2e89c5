import { sql, type SQL } from 'drizzle-orm';
import type { Role } from '@parley/shared';
import { templates } from '../../platform/db/schema/index.js';

/*
 * Who sees which template, in one place: a template that is not private is seen by every member of its
 * account; a private one by the user who made it, the account's administrators and API clients (they act
 * as the account's administrator). A hidden template answers 404, like another account's. The capability
 * to write templates does not widen it: a Campaign Manager does not see a colleague's private template.
 */

export interface TemplateViewer {
  role: Role;
  /** A user id, or the client id of an API client. */
  userId: string;
  /** Set for an API client. */
  clientId?: string | undefined;
}

export const templateViewer = (principal: { userId: string; clientId?: string | undefined }, membership: { role: Role }): TemplateViewer => ({
  role: membership.role,
  userId: principal.userId,
  clientId: principal.clientId,
});

/** True when the viewer sees every template of the account, private ones included. */
export const seesEveryTemplate = (viewer: TemplateViewer): boolean => viewer.clientId !== undefined || viewer.role === 'Administrator';

/** The user a new template is recorded as made by: null for an API client, which is not a user. */
export const templateCreatorId = (viewer: TemplateViewer): string | null => (viewer.clientId === undefined ? viewer.userId : null);

/** The SQL condition "the viewer sees this template" on the templates table; `true` for those who see all. */
export function visibleTemplateCondition(viewer: TemplateViewer): SQL {
  if (seesEveryTemplate(viewer)) return sql`true`;
  return sql`(not ${templates.private} or ${templates.createdByUserId} = ${viewer.userId})`;
}

/** The same rule for a template already loaded. */
export const seesTemplate = (viewer: TemplateViewer, template: { private: boolean; createdByUserId: string | null }): boolean =>
  !template.private || seesEveryTemplate(viewer) || template.createdByUserId === viewer.userId;
