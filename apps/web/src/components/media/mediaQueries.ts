import { MEDIA_RESIZE_DEFAULT, sharedFileResponseSchema, type SharedFile } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/** POST tools/sharefile?resize=500: one picture as multipart form data; the answer holds its link. */
export const useUploadMedia = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (file: File): Promise<SharedFile> => {
      const form = new FormData();
      form.append('file', file, file.name);
      const answer = await api.post(`/v1/accounts/${accountId}/tools/sharefile`, form, {
        query: { resize: MEDIA_RESIZE_DEFAULT },
        schema: sharedFileResponseSchema,
      });
      return answer.data;
    },
  });
};
