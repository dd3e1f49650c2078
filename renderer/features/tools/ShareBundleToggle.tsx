import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Switch } from '../../components/Switch.js';
import { useMcpServers } from '../../queries/mcp.js';
import { useMcpShareStatus, useShareBundle } from '../../queries/mcp-share.js';

/**
 * "Share over MCP" for the selected bundle: its enabled tools become
 * available to other apps through Toolbelt's MCP server. Not offered for a
 * bundle that is itself an MCP server's tools.
 */
export function ShareBundleToggle({ bundleID, displayName }: { bundleID: string; displayName: string }) {
  const { t } = useTranslation();
  const status = useMcpShareStatus();
  const servers = useMcpServers();
  const share = useShareBundle();
  const [error, setError] = useState<string | null>(null);
  if (!status.data || servers.data?.some((server) => server.bundleID === bundleID)) return null;
  const shared = status.data.sharedBundleIDs.includes(bundleID);
  return (
    <div className="share-toggle">
      <Switch
        checked={shared}
        label={t('shareBundle.switch', { name: displayName })}
        disabled={share.isPending}
        onChange={(next) => {
          setError(null);
          share.mutate({ bundleID, shared: next }, { onError: (failure) => setError(errorMessage(failure)) });
        }}
      />
      <span className="muted">{!shared ? t('shareBundle.off') : status.data.state === 'running' ? t('shareBundle.on') : t('shareBundle.onButOff')}</span>
      <ErrorLine message={error} />
    </div>
  );
}
