import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import { useMemo, useState } from 'react';
import { AttachmentPicker } from '../../components/media/AttachmentPicker';
import { MessageEditor } from '../../components/messageEditor/MessageEditor';
import { ChooseTemplateDialog } from '../templates';
import { useAccount } from '../../session/queries';
import { useAttributeNames } from '../contacts';
import type { StepProps } from './stepProps';
import { errorAt } from './wizardState';

/**
 * Design Template: the message in the editor (tokens, segments), or taken from a saved SMS template, and its
 * pictures (up to 5, uploaded here or the template's).
 */
export const TemplateStep = ({ accountId, draft, onChange, errors, disabled }: StepProps) => {
  const account = useAccount(accountId);
  const attributes = useAttributeNames(accountId);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const [choosing, setChoosing] = useState(false);
  const error = errors.template ?? errorAt(errors, 'media') ?? errors.templateId;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button startIcon={<DescriptionOutlined />} onClick={() => { setChoosing(true); }} disabled={disabled}>
          Choose Template
        </Button>
        {/* Pictures sent with every message of the campaign (MMS), uploaded as in a conversation. */}
        <AttachmentPicker value={draft.media} onChange={(media) => { onChange({ media }); }} disabled={disabled} />
      </Stack>
      <FormControl error={error !== undefined}>
        <MessageEditor
          accountId={accountId}
          value={draft.template}
          // A text edited by hand is no longer the saved template's.
          onChange={(template) => { onChange({ template, templateId: null }); }}
          attributeNames={attributeNames}
          pricing={account.data?.plan.pricing ?? null}
          recipients={[]}
          hasMedia={draft.media.length > 0}
          disabled={disabled}
        />
        {error !== undefined && <FormHelperText>{error}</FormHelperText>}
      </FormControl>
      {choosing && (
        <ChooseTemplateDialog
          accountId={accountId}
          onChoose={(template) => {
            onChange({ template: template.template, templateId: template.id, media: template.media.map((m) => ({ ...m })) });
          }}
          onClose={() => { setChoosing(false); }}
        />
      )}
    </Stack>
  );
};
