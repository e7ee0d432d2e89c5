export { ChooseTemplateDialog } from './ChooseTemplateDialog';
export { TemplatePicker } from './TemplatePicker';
