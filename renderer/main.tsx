import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToolbeltError } from '../shared/errors.js';
import { createApiClient } from './api/client.js';
import { connectToCore } from './api/connect.js';
import { CoreProvider } from './api/context.js';
import { App } from './App.js';
import { installScreenShortcuts } from './hooks.js';
import { applyLanguage } from './i18n/index.js';
import { resolveLanguage } from './i18n/languages.js';
import { useUiStore } from './state/ui.js';
import { LockedScreen } from './LockedScreen.js';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A validation or not-found error will not fix itself by asking again.
      retry: (failures, error) => failures < 2 && error instanceof ToolbeltError && error.code === 'unavailable',
      refetchOnWindowFocus: false,
    },
  },
});

// Before the first render, so that nothing is drawn in English first (the locked screen included).
applyLanguage(resolveLanguage(useUiStore.getState().language, navigator.languages));

const transport = connectToCore();
// Before the first render, so that a screen's shortcut pressed while the window still draws itself is kept.
if (transport) installScreenShortcuts();
const root = createRoot(document.getElementById('root')!);
root.render(
  <StrictMode>
    {transport ? (
      <CoreProvider value={{ transport, api: createApiClient(transport) }}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </CoreProvider>
    ) : (
      <LockedScreen />
    )}
  </StrictMode>,
);
