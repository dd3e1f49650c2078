import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi, useCoreTransport } from '../api/context.js';

const questionKeys = { open: ['questions'] as const };

/** Questions running tools wait on now, kept current by `questions.changed`. */
export function useLiveQuestions() {
  const api = useApi();
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (event.type === 'questions.changed') void queryClient.invalidateQueries({ queryKey: questionKeys.open });
      }),
    [transport, queryClient],
  );
  return useQuery({ queryKey: questionKeys.open, queryFn: async () => (await api.questions.list()).questions });
}

export function useAnswerQuestion() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: ParamsOf<Operations['questions.answer']>) => api.questions.answer(params),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionKeys.open }),
  });
}
