export { ChangePlanDialog } from './ChangePlanDialog';
export { InvoicesTab } from './InvoicesTab';
export { PlanBillingSection } from './PlanBillingSection';
export { PlanDetail } from './PlanDetail';
export { TopUpDialog } from './TopUpDialog';
export { TrialPlanSection } from './TrialPlanSection';
export { approximateMessageCount } from './messageEstimate';
