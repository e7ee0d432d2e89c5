export type { AvailableNumber, Carrier, CarrierCapabilities, CarrierHandlers, CarrierName, DeliveryStatus, InboundMessage, MessageEncoding, OutboundMessage, StatusReport, SubmitResult } from './carrier.js';
export { loadCarrierConnection } from './connections.js';
export { buildCarrierRegistry } from './deployment.js';
export { CarrierUnavailableError, DEPLOYMENT_SIMULATOR, type CarrierRegistry, type EngineHandlers, type NumberCarrierRef } from './registry.js';
export { carrierConnectionRoutes } from './routes/connections.js';
export { carrierWebhookRoutes } from './routes/webhooks.js';
export { isSimulatorPicture, readSimulatorPicture } from './simulator/media.js';
export { activeSimulatorNumbers, listPhones, parsePhoneParam, phoneThread, sendFromPhone, type PhoneSummary } from './simulator/phones.js';
export { defaultSimulatorSettings, loadSimulatorSettings, saveSimulatorSettings, type SimulatorNetworkSettings } from './simulator/settings.js';
