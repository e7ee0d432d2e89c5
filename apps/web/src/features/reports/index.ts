export { ReportDownloadsSection } from './ReportDownloadsSection';
