import { z } from 'zod';
import type { ProviderContactTags, SyncPage } from '../connector.js';
import type { HubSpotConnection } from './hubspotClient.js';
import { pageHubSpotListMembers, pageHubSpotLists } from './hubspotLists.js';

/*
 * Lists as tags, paged as HubSpot pages them: the cursor names the page of lists (its offset), the list in it
 * and the `after` of that list's members, so a sync that stops resumes at the members it had not written.
 */

const cursorSchema = z.object({ offset: z.number().int().min(0), index: z.number().int().min(0), after: z.string().nullable() });
type TagCursor = z.infer<typeof cursorSchema>;

const START: TagCursor = { offset: 0, index: 0, after: null };

function cursorOf(text: string | null): TagCursor {
  if (text === null) return START;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : START;
  } catch {
    return START;
  }
}

const textOf = (cursor: TagCursor): string => JSON.stringify(cursor);

/** One page of a list's members, each tagged with the list's name; lists of other objects are skipped. */
export async function pageHubSpotTags(connection: HubSpotConnection, cursorText: string | null): Promise<SyncPage<ProviderContactTags>> {
  let cursor = cursorOf(cursorText);
  for (;;) {
    const lists = await pageHubSpotLists(connection, cursor.offset);
    const list = lists.items[cursor.index];
    if (list === undefined) {
      // This page of lists is done (or held no contact list): the next page, if HubSpot has one.
      if (lists.nextOffset === null || lists.nextOffset <= cursor.offset) return { items: [], next: null };
      cursor = { offset: lists.nextOffset, index: 0, after: null };
      continue;
    }
    const members = await pageHubSpotListMembers(connection, list.id, cursor.after);
    const items = members.items.map((externalId) => ({ externalId, tags: [list.name] }));
    const next: TagCursor | null =
      members.after !== null
        ? { ...cursor, after: members.after }
        : cursor.index + 1 < lists.items.length
          ? { offset: cursor.offset, index: cursor.index + 1, after: null }
          : lists.nextOffset === null
            ? null
            : { offset: lists.nextOffset, index: 0, after: null };
    return { items, next: next === null ? null : textOf(next) };
  }
}
