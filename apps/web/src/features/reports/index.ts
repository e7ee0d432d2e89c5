export { DeliveryHealthButton } from './DeliveryHealthButton';
export { ReportDownloadsSection } from './ReportDownloadsSection';
