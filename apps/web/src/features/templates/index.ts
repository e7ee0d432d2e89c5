export { ChooseTemplateDialog } from './ChooseTemplateDialog';
export { TemplatePicker } from './TemplatePicker';
export { useTemplates } from './queries';
