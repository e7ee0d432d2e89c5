export { useAccountUsers } from './queries';
