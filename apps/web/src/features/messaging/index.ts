export { ContactOption, unreachableReason } from './ContactOption';
export { OutsideHoursNotice, SendChoice, useOutsideHours } from './OutsideHoursChoice';
export { SenderNumberSelect } from './SenderNumberSelect';
export { LazySendMessageDialog } from './lazySendMessageDialog';
export { acceptableHoursKey, heldCountKey, useAcceptableHours, useApproveHeld } from './approvals/queries';
export { useRecipientSearch } from './sendMessageQueries';
