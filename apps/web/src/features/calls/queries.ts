import { CALL_NO_MOBILE_MESSAGE, CALL_PLACED_MESSAGE, can, type CallRecord, type PhoneNumber, type PlaceCall, type Role } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { useProfile } from '../../session/queries';

/** POST /v1/accounts/{acc}/calls: Parley rings the user's own mobile, then connects them to the destination. */
export const usePlaceCall = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: (body: PlaceCall) => api.post<CallRecord>(`/v1/accounts/${accountId}/calls`, body),
  });
};

export interface CallAbility {
  /** The role may call (the roles that may send messages). */
  allowed: boolean;
  /** Why Call is shown disabled (no mobile on the profile), or null when it can be pressed. */
  disabledReason: string | null;
}

/** Whether the signed-in user may place calls, and why not when they may but cannot (docs/calls.md). */
export const useCallAbility = (role: Role): CallAbility => {
  const profile = useProfile();
  const allowed = can(role, 'messages.send');
  const mobile = profile.data?.mobile ?? null;
  const hasMobile = mobile !== null && mobile.number !== '';
  return { allowed, disabledReason: allowed && !hasMobile ? CALL_NO_MOBILE_MESSAGE : null };
};

/** The account's number a call to a contact comes from when no conversation says: the oldest active one. */
export const callerNumberOf = (numbers: readonly PhoneNumber[] | undefined): PhoneNumber | undefined => numbers?.find((n) => n.status === 'active');

/** Places a call and says so: 'Calling your phone…', or the refusal's message. */
export const useStartCall = (accountId: string) => {
  const place = usePlaceCall(accountId);
  const snackbar = useSnackbar();
  const { mutate } = place;
  const start = useCallback(
    (destination: string, fromId: string): void => {
      snackbar.show(CALL_PLACED_MESSAGE);
      mutate(
        { destination, from: { id: fromId } },
        {
          onError: (error) => {
            snackbar.show(errorMessage(error));
          },
        },
      );
    },
    [mutate, snackbar],
  );
  return { start, pending: place.isPending };
};
