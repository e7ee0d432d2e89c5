export { campaignExecutionJob } from './campaignExecutionJob.js';
export type { ExecutionRecord } from './campaignExecutions.js';
export { createCampaign } from './campaignManager.js';
export { executeCampaign } from './campaignPreparation.js';
export { campaignReportingJob } from './campaignReportingJob.js';
export { campaignSchedulerJob } from './campaignSchedulerJob.js';
export { runCampaignExecution } from './campaignSender.js';
export { campaignRoutes } from './routes/campaigns.js';
export { jobReportRoutes } from './routes/jobReports.js';
