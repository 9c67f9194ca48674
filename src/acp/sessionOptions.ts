// The session's modes and config options as ACP shows them (docs/acp.md): the mode (manual, yolo, auto,
// plan), the model (the aliases of config.toml) and thinking (off, the model's default, or an effort).
import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { ThinkingSettings } from '../engine/loop/loop';
import type { PermissionMode } from '../engine/session/records';
import type { ResolvedModel } from '../llm/types';

export const MODE_IDS = ['manual', 'yolo', 'auto', 'plan'] as const;
export type AcpModeId = (typeof MODE_IDS)[number];

const MODES: Record<AcpModeId, { name: string; description: string }> = {
  manual: { name: 'Manual', description: 'Ask before every change and command that the rules do not allow' },
  yolo: { name: 'YOLO', description: 'Approve regular tool calls; sensitive files still ask' },
  auto: { name: 'Auto', description: 'Approve everything and never ask' },
  plan: { name: 'Plan', description: 'Read and plan only; the plan is reviewed before any change' },
};

export const THINKING_VALUES = ['off', 'default', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export interface OptionState {
  mode: PermissionMode;
  planMode: boolean;
  model: ResolvedModel;
  modelAliases: string[];
  thinking: ThinkingSettings;
}

export function currentModeId(s: Pick<OptionState, 'mode' | 'planMode'>): AcpModeId {
  return s.planMode ? 'plan' : s.mode;
}

export function modeState(s: Pick<OptionState, 'mode' | 'planMode'>): SessionModeState {
  return {
    currentModeId: currentModeId(s),
    availableModes: MODE_IDS.map((id) => ({ id, ...MODES[id] })),
  };
}

export function thinkingValue(thinking: ThinkingSettings): string {
  return thinking.enabled ? (thinking.effort ?? 'default') : 'off';
}

export function configOptions(s: OptionState): SessionConfigOption[] {
  const aliases = s.modelAliases.includes(s.model.alias) ? s.modelAliases : [s.model.alias, ...s.modelAliases];
  const options: SessionConfigOption[] = [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: currentModeId(s),
      options: MODE_IDS.map((id) => ({ value: id, name: MODES[id].name, description: MODES[id].description })),
    },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: s.model.alias,
      options: aliases.map((alias) => ({ value: alias, name: alias })),
    },
  ];
  if (s.model.capabilities.includes('thinking') || s.model.capabilities.includes('always_thinking')) {
    const values = s.model.capabilities.includes('always_thinking')
      ? THINKING_VALUES.filter((v) => v !== 'off')
      : THINKING_VALUES;
    options.push({
      id: 'thinking',
      name: 'Thinking',
      category: 'thought_level',
      type: 'select',
      currentValue: thinkingValue(s.thinking),
      options: values.map((v) => ({
        value: v,
        name: v === 'default' ? "Model's default effort" : v === 'off' ? 'Off' : `Effort: ${v}`,
      })),
    });
  }
  return options;
}

/** Applies a thinking value to the settings object the agent reads at each request. */
export function applyThinking(thinking: ThinkingSettings, value: string): boolean {
  if (!(THINKING_VALUES as readonly string[]).includes(value)) return false;
  thinking.enabled = value !== 'off';
  thinking.effort = value === 'off' || value === 'default' ? undefined : value;
  return true;
}
