export { addConnectionNumber, type ConnectionNumberTarget } from './phoneNumberAdder.js';
export { embeddedFirstNumbers, type FirstNumbers } from './phoneNumberFirst.js';
export { connectionNumberRoutes } from './routes/connectionNumbers.js';
export { phoneNumberRoutes } from './routes/phoneNumbers.js';
export { holderNameOfNumber } from './queries.js';
export { addImportedNumber, connectionNumbers, refuseImport, releaseNumbers, type ImportedNumber } from './phoneNumberImport.js';
export { presentPhoneNumber } from './phoneNumberPresenter.js';
