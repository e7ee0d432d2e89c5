export { presentCall } from './callPresenter.js';
export { CALL_NUMBER_NOT_FOUND, recordCall, recordCallIn, type CallReport, type RecordedCall } from './callRecorder.js';
export { callRoutes } from './routes/calls.js';
export { textBackMissedCall, textBackWithinWindow, TEXT_BACK_TEMPLATE_GONE, type TextBackOutcome, type TextBackSettings } from './textBack.js';
