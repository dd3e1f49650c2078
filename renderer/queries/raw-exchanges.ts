import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.js';

/** What a chat's last runs sent to the model server and got back; read when the view opens. */
export function useRawExchanges(chatId: string) {
  const api = useApi();
  return useQuery({ queryKey: ['chats', chatId, 'raw-exchanges'], queryFn: () => api.chats.rawExchanges({ chatId }), staleTime: 0 });
}
