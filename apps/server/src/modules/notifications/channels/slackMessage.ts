import type { KnownBlock } from '@slack/web-api';
import type { ChannelPost } from './channelPosts.js';

/** Slack's mrkdwn takes &, < and > as markup: a contact's text is escaped as Slack documents. */
const escape = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** An inbound message as a Slack post: who wrote (name and number), what, and a link to the conversation. */
export function slackMessageOf(post: Pick<ChannelPost, 'body' | 'conversationId'>, publicUrl: string): { text: string; blocks: KnownBlock[] } {
  const { contactName, contactNumber, text } = post.body;
  const link = `${publicUrl}/conversations/${post.conversationId}`;
  const who = contactName === contactNumber ? contactNumber : `${contactName} (${contactNumber})`;
  return {
    text: `New message from ${who}: ${text}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escape(who)}*\n${escape(text)}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${link}|Open the conversation in Parley> · Reply in this thread to answer by SMS` }] },
    ],
  };
}
