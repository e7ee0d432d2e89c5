export { CallButton } from './CallButton';
export { callerNumberOf, useCallAbility, useStartCall, type CallAbility } from './queries';
