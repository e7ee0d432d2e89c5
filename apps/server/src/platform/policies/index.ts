export { authorize } from './authorize.js';
export { notFoundUnlessSameAccount } from './tenancy.js';
