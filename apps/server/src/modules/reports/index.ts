export { campaignReportMail } from './campaignReportMail.js';
export { messagesReportJob, pruneReportsJob } from './messagesReportJob.js';
export { reportRoutes } from './routes/reports.js';
