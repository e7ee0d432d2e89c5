/** Account roles of the spec; the server enforces them, the web app only hides what a role cannot use. */
export const roles = ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const;
export type Role = (typeof roles)[number];
