import type { Group } from '@parley/shared';
import type { GroupWithUsers } from './queries.js';

export function presentGroup({ group, users, phoneNumberIds }: GroupWithUsers): Group {
  return {
    id: group.id,
    name: group.name,
    tags: group.tags,
    phoneNumbers: phoneNumberIds.map((id) => ({ id })),
    users,
    created: { at: group.createdAt.toISOString() },
    updated: { at: group.updatedAt.toISOString() },
  };
}
