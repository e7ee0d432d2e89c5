export { useContact } from './inbox/queries';
