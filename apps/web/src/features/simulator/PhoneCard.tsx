import ImageOutlined from '@mui/icons-material/ImageOutlined';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SimulatorNumber, SimulatorPhone } from '@parley/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { PhoneBubble } from './PhoneBubble';
import { usePhoneCall, usePhoneSend, usePhoneThread } from './queries';
import { defaultBusinessNumber } from './simulatorView';

interface PhoneCardProps {
  accountId: string;
  phone: SimulatorPhone;
  numbers: readonly SimulatorNumber[];
  /** The role may speak for the phone (messages.send). */
  canSend: boolean;
}

const counts = ({ counts: c }: SimulatorPhone): string =>
  [`${String(c.received)} received`, `${String(c.sent)} sent`, ...(c.calls > 0 ? [`${String(c.calls)} ${c.calls === 1 ? 'call' : 'calls'}`] : [])].join(
    ' · ',
  );

/** One virtual phone: its thread with the account's numbers, and what it can send back. */
export const PhoneCard = ({ accountId, phone, numbers, canSend }: PhoneCardProps) => {
  const thread = usePhoneThread(accountId, phone.number, phone.updated.at);
  const send = usePhoneSend(accountId);
  const call = usePhoneCall(accountId);
  const display = usePhoneDisplay();
  const shown = display.phone(phone.number);
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const to = chosen !== null && numbers.some((n) => n.number === chosen) ? chosen : defaultBusinessNumber(phone, numbers);
  const scroller = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const messages = thread.data ?? [];
  const manyNumbers = new Set(messages.filter((m) => m.kind !== 'call').map((m) => m.businessNumber)).size > 1;

  // Stay at the newest message, as a phone does (again once a picture has its height).
  const toNewest = () => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  };
  useEffect(toNewest, [messages.length, phone.updated.at]);
  // The account's own number takes verification calls here; it does not text itself.
  const ownNumber = numbers.some((n) => n.number === phone.number);

  const submit = (body: string, picture = false) => {
    if (to === null) return;
    send.mutate(
      { phone: phone.number, message: { to, body, picture } },
      {
        onSuccess: () => {
          if (!picture && body === text) setText('');
        },
      },
    );
  };

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ borderRadius: 5, borderWidth: 2, overflow: 'hidden', display: 'flex', flexDirection: 'column', height: 540 }}
    >
      <Box sx={{ px: 2, pt: 1.5, pb: 1, bgcolor: 'grey.900', color: 'common.white' }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
          {shown}
        </Typography>
        <Typography variant="caption" sx={{ opacity: 0.8 }}>
          {counts(phone)}
        </Typography>
      </Box>
      <Stack ref={scroller} spacing={1} sx={{ flex: 1, overflowY: 'auto', p: 1.5, bgcolor: 'background.default' }} aria-label={`Messages of ${shown}`}>
        {thread.isError && (
          <Typography variant="body2" color="error">
            {errorMessage(thread.error)}
          </Typography>
        )}
        {messages.map((message) => (
          <PhoneBubble key={message.id} accountId={accountId} message={message} canAct={canSend} showBusiness={manyNumbers} onMediaLoad={toNewest} />
        ))}
      </Stack>
      {ownNumber && (
        <Typography variant="body2" color="text.secondary" sx={{ p: 1.5, borderTop: 1, borderColor: 'divider' }}>
          One of this account&apos;s numbers: calls that verify it show here.
        </Typography>
      )}
      {canSend && !ownNumber && (
        <Box component="form" sx={{ p: 1.5, borderTop: 1, borderColor: 'divider' }} onSubmit={(event) => {
          event.preventDefault();
          if (text.trim() !== '') submit(text);
        }}>
          {numbers.length > 1 && (
            <TextField
              select
              size="small"
              fullWidth
              label="Business number"
              value={to ?? ''}
              onChange={(event) => {
                setChosen(event.target.value);
              }}
              sx={{ mb: 1 }}
            >
              {numbers.map((n) => (
                <MenuItem key={n.number} value={n.number}>
                  {n.name === '' ? display.phone(n.number) : `${display.phone(n.number)} (${n.name})`}
                </MenuItem>
              ))}
            </TextField>
          )}
          {to === null ? (
            <Typography variant="body2" color="text.secondary">
              This account has no active simulator number to answer.
            </Typography>
          ) : (
            <>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end' }}>
                <TextField
                  size="small"
                  fullWidth
                  multiline
                  maxRows={3}
                  placeholder="Reply"
                  slotProps={{ htmlInput: { 'aria-label': `Reply from ${shown}`, maxLength: 1600 } }}
                  value={text}
                  onChange={(event) => {
                    setText(event.target.value);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && !event.shiftKey) {
                      event.preventDefault();
                      if (text.trim() !== '') submit(text);
                    }
                  }}
                />
                <IconButton type="submit" color="primary" aria-label="Send" disabled={text.trim() === '' || send.isPending}>
                  <SendOutlined />
                </IconButton>
              </Stack>
              <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
                <Button size="small" variant="outlined" color="error" disabled={send.isPending} onClick={() => {
                  submit('STOP');
                }}>
                  STOP
                </Button>
                <Button size="small" variant="outlined" startIcon={<ImageOutlined />} disabled={send.isPending} onClick={() => {
                  submit('', true);
                }}>
                  Send picture
                </Button>
                <Button size="small" variant="outlined" startIcon={<PhoneOutlined />} disabled={call.isPending} onClick={() => {
                  call.mutate({ phone: phone.number, to });
                }}>
                  Call
                </Button>
              </Stack>
            </>
          )}
          {(send.isError || call.isError) && (
            <Typography variant="caption" color="error" role="alert" sx={{ display: 'block', mt: 0.5 }}>
              {errorMessage(send.error ?? call.error)}
            </Typography>
          )}
        </Box>
      )}
    </Paper>
  );
};
