// What other features use of notifications: "Add to Slack" (the Slack integration page connects through it).
export { useAddToSlack } from './channels/channelQueries';
