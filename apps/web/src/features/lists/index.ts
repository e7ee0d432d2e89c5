export { AddToListDialog } from './AddToListDialog';
