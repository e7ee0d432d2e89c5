import DataObjectOutlined from '@mui/icons-material/DataObjectOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { knownTokens, MESSAGE_TEXT_MAX, tokenText, type Contact, type PlanPricing } from '@parley/shared';
import { useId, useMemo, useRef, useState } from 'react';
import { estimateMessage, formatPriceRange, lengthAfterInsert, lengthNotice } from './messageEstimate';
import { useShortenedText } from './useShortenedText';

export interface MessageEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The account's custom attribute names, offered as tokens after the contact fields. */
  attributeNames: readonly string[];
  /** The account's plan prices; null while they load. */
  pricing: PlanPricing | null;
  /** The chosen contacts: the counts follow the first, the price each. */
  recipients: readonly Contact[];
  hasMedia?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The account sending: with its auto link shortening on, the counts are those of the shortened text, shown under it. */
  accountId?: string;
}

const plural = (n: number, one: string, many: string): string => `${String(n)} ${n === 1 ? one : many}`;

/**
 * The message editor: the text with tokens in triple braces, a token menu that inserts at the caret,
 * and under it the characters left in the current segment, the segments, the price per contact, and what makes
 * a message cost more (characters that force UCS-2) or send less than meant (unknown tokens). With the account's
 * auto link shortening on, the counts are those of the text with short links, shown as 'Sent as: ...'.
 */
export const MessageEditor = ({ value, onChange, attributeNames, pricing, recipients, hasMedia = false, disabled, autoFocus, accountId }: MessageEditorProps) => {
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  // The length a paste or a token would have given the text past the limit, until the text is shorter again.
  const [attempted, setAttempted] = useState<number | null>(null);
  const menuId = useId();
  const tokens = useMemo(() => knownTokens(attributeNames), [attributeNames]);
  const sent = useShortenedText(accountId ?? null, value);
  const estimate = useMemo(
    () => estimateMessage({ template: sent, attributeNames, pricing, recipients, hasMedia }),
    [sent, attributeNames, pricing, recipients, hasMedia],
  );

  const insert = (name: string): void => {
    const input = inputRef.current;
    const token = tokenText(name);
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    const next = `${value.slice(0, start)}${token}${value.slice(end)}`;
    if (next.length > MESSAGE_TEXT_MAX) {
      setAttempted(next.length);
      setMenuAnchor(null);
      return;
    }
    onChange(next);
    setMenuAnchor(null);
    // Put the caret after the token once React has written the new value.
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const notice = lengthNotice(value.length, attempted);
  const counts = `${plural(estimate.charactersLeft, 'character', 'characters')} left · ${plural(estimate.segments, 'segment', 'segments')} · ${estimate.encoding}`;

  return (
    <Stack spacing={1}>
      <TextField
        id={`${menuId}-message`}
        label="Message"
        multiline
        minRows={4}
        maxRows={12}
        fullWidth
        value={value}
        disabled={disabled}
        autoFocus={autoFocus}
        inputRef={inputRef}
        onChange={(event) => {
          if (event.target.value.length < MESSAGE_TEXT_MAX) setAttempted(null);
          onChange(event.target.value);
        }}
        onPaste={(event) => {
          // The field keeps the first MESSAGE_TEXT_MAX characters of a longer paste: say so, not silently.
          const input = event.currentTarget.querySelector('textarea');
          const pasted = event.clipboardData.getData('text/plain');
          const after = lengthAfterInsert(value, pasted, input?.selectionStart ?? value.length, input?.selectionEnd ?? value.length);
          setAttempted(after > MESSAGE_TEXT_MAX ? after : null);
        }}
        error={attempted !== null && attempted > MESSAGE_TEXT_MAX}
        helperText={notice}
        slotProps={{ htmlInput: { maxLength: MESSAGE_TEXT_MAX, 'aria-describedby': notice === null ? `${menuId}-counts` : `${menuId}-message-helper-text ${menuId}-counts` } }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<DataObjectOutlined />}
          disabled={disabled}
          aria-haspopup="menu"
          aria-controls={menuAnchor === null ? undefined : menuId}
          aria-expanded={menuAnchor !== null}
          onClick={(event) => {
            setMenuAnchor(event.currentTarget);
          }}
        >
          Insert Token
        </Button>
        <Typography id={`${menuId}-counts`} variant="body2" color="text.secondary" sx={{ flex: 1, textAlign: 'right' }}>
          {counts}
        </Typography>
      </Stack>
      <Menu id={menuId} anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => { setMenuAnchor(null); }}>
        {tokens.map((name) => (
          <MenuItem key={name} onClick={() => { insert(name); }}>
            {tokenText(name)}
          </MenuItem>
        ))}
      </Menu>
      {sent !== value && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Sent as: {estimate.preview}
        </Typography>
      )}
      {estimate.price !== null && (
        <Typography variant="body2" color="text.secondary">
          Price per contact: {formatPriceRange(estimate.price)}
          {recipients.length > 1 ? ` · about $${estimate.price.total} for ${String(recipients.length)} contacts` : ''}
        </Typography>
      )}
      {estimate.nonGsmCharacters.length > 0 && (
        <Alert severity="info" variant="outlined">
          These characters send the message as UCS-2, 70 characters a segment instead of 160:{' '}
          <strong>{estimate.nonGsmCharacters.join(' ')}</strong>
        </Alert>
      )}
      {estimate.unknownTokens.length > 0 && (
        <Alert severity="warning" variant="outlined">
          Unknown tokens send nothing: {estimate.unknownTokens.map(tokenText).join(', ')}
        </Alert>
      )}
      {estimate.unpriced.length > 0 && (
        <Alert severity="warning" variant="outlined">
          Your plan has no {hasMedia ? 'MMS ' : ''}price for {estimate.unpriced.join(', ')}: those contacts will be left out.
        </Alert>
      )}
    </Stack>
  );
};
