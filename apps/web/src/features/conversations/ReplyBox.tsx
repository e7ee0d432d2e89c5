import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { Conversation, MessageMedia } from '@parley/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AttachmentPicker } from '../../components/media/AttachmentPicker';
import { MessageEditor } from '../../components/messageEditor/MessageEditor';
import { ChooseTemplateDialog } from '../templates';
import { useSnackbar } from '../../components/snackbarContext';
import { useContact, useReply } from './inbox/queries';
import { useAttributeNames } from '../contacts';
import { useAccount } from '../../session/queries';
import { OutsideHoursNotice, SendChoice, useOutsideHours } from '../messaging';
import { canReply } from './replyDraft';

export interface ReplyBoxProps {
  accountId: string;
  conversation: Conversation;
  /** The person's email is verified: unverified people cannot send. */
  verified: boolean;
  autoFocus?: boolean;
}

/**
 * The send box of an open conversation: the message editor (characters left, segments, price per contact,
 * tokens), up to 5 attachments, Choose Template (fills the text and attachments from an SMS template), and
 * Send. The message goes from the conversation's own number.
 */
export const ReplyBox = ({ accountId, conversation, verified, autoFocus }: ReplyBoxProps) => {
  const snackbar = useSnackbar();
  const account = useAccount(accountId);
  const attributes = useAttributeNames(accountId);
  const contact = useContact(accountId, conversation.contact.id);
  const reply = useReply(accountId, conversation.id);
  const [template, setTemplate] = useState('');
  const [media, setMedia] = useState<MessageMedia[]>([]);
  const [choosing, setChoosing] = useState(false);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const recipients = useMemo(() => (contact.data === undefined ? [] : [contact.data]), [contact.data]);

  const outside = useOutsideHours(accountId, conversation.contact.id);

  const send = (sendNow: boolean): void => {
    reply.mutate(
      { template, media, sendNow },
      {
        onSuccess: (result) => {
          setTemplate('');
          setMedia([]);
          const [left] = result.data.invalid;
          if (left !== undefined) snackbar.show(`Not sent: ${left.reason}`);
        },
      },
    );
  };

  return (
    <Stack component="section" aria-label="Reply" spacing={1.5} sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
      {!verified && (
        <Alert severity="warning">
          Your email is unverified. You will not be able to send messages or perform any chargable actions until your account is
          verified.
        </Alert>
      )}
      <MessageEditor
        accountId={accountId}
        value={template}
        onChange={setTemplate}
        attributeNames={attributeNames}
        pricing={account.data?.plan.pricing ?? null}
        recipients={recipients}
        hasMedia={media.length > 0}
        disabled={reply.isPending}
        autoFocus={autoFocus}
      />
      {/* On a phone the send buttons go under the template and attachment buttons rather than off the edge. */}
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Button
            size="small"
            startIcon={<DescriptionOutlined />}
            disabled={reply.isPending}
            onClick={() => {
              setChoosing(true);
            }}
          >
            Choose Template
          </Button>
          <AttachmentPicker value={media} onChange={setMedia} disabled={reply.isPending} />
        </Stack>
        <SendChoice outside={outside} disabled={!canReply({ template, media }, verified)} pending={reply.isPending} onSend={send} />
      </Stack>
      {outside !== null && <OutsideHoursNotice status={outside} />}
      {reply.isError && <ErrorAlert message={errorMessage(reply.error)} />}
      {choosing && (
        <ChooseTemplateDialog
          accountId={accountId}
          onChoose={(chosen) => {
            setTemplate(chosen.template);
            setMedia(chosen.media);
          }}
          onClose={() => {
            setChoosing(false);
          }}
        />
      )}
    </Stack>
  );
};
