export { presentCall } from './callPresenter.js';
export { CALL_NUMBER_NOT_FOUND, recordCall, recordCallIn, type CallReport, type RecordedCall } from './callRecorder.js';
export { callRoutes } from './routes/calls.js';
export { textBackMissedCall, textBackWithinWindow, TEXT_BACK_TEMPLATE_GONE, type TextBackOutcome, type TextBackSettings } from './textBack.js';
export { findOwnCall, progressCall, type CallProgress } from './callProgress.js';
export { placeClickToCall } from './clickToCall.js';
export { answerIncomingCall, NO_FORWARD_SPOKEN, type IncomingCallAnswer } from './incomingCall.js';
export { placeCallRoutes } from './routes/placeCall.js';
export { twilioVoiceRoutes } from './routes/twilioVoice.js';
