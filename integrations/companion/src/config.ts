// Connection config: where vjd is and its API key (a Companion secret, never written into a URL).
import { Regex, type SomeCompanionConfigField } from '@companion-module/base';

export interface VjdConfig {
  host: string;
  port: number;
  /** Variable groups kept up to date; each costs an events topic, so unused ones can be switched off. */
  variableGroups: string[];
}

export interface VjdSecrets {
  apiKey?: string;
}

/** Variable group → the events topics it needs. */
export const VARIABLE_GROUPS: Record<string, { label: string; topics: string[] }> = {
  tempo: { label: 'Tempo (bpm, beat, bar)', topics: ['tempo'] },
  mix: { label: 'Program and preview names', topics: ['mix'] },
  scene: { label: 'Current scene', topics: ['scenes', 'layers', 'chain'] },
  transport: { label: 'Clip position and remaining time', topics: ['transport'] },
  layers: { label: 'Layer opacities', topics: ['layers'] },
  status: { label: 'Render fps', topics: ['status'] },
  recording: { label: 'Recording time', topics: ['outputs'] },
};

export function configFields(): SomeCompanionConfigField[] {
  return [
    { type: 'textinput', id: 'host', label: 'vjd host', width: 8, default: '127.0.0.1', regex: Regex.HOSTNAME },
    { type: 'number', id: 'port', label: 'Port', width: 4, default: 8080, min: 1, max: 65535 },
    {
      type: 'secret-text',
      id: 'apiKey',
      label: 'API key (server.apiKey; empty when vjd has none)',
      width: 12,
      default: '',
    },
    {
      type: 'multidropdown',
      id: 'variableGroups',
      label: 'Variables to keep updated',
      width: 12,
      default: Object.keys(VARIABLE_GROUPS),
      choices: Object.entries(VARIABLE_GROUPS).map(([id, g]) => ({ id, label: g.label })),
    },
  ];
}

/** The config with defaults filled in; null when host or port cannot be used. */
export function normaliseConfig(c: Partial<VjdConfig> | undefined): VjdConfig | null {
  const host = String(c?.host ?? '').trim();
  const port = Number(c?.port);
  if (host === '' || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  const groups = Array.isArray(c?.variableGroups) ? c.variableGroups.map(String) : Object.keys(VARIABLE_GROUPS);
  return { host, port, variableGroups: groups.filter((g) => g in VARIABLE_GROUPS) };
}
