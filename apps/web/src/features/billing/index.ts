export { TopUpDialog } from './TopUpDialog';
export { TrialPlanSection } from './TrialPlanSection';
export { approximateMessageCount } from './messageEstimate';
export { showsTopUpButton } from './topUp';
