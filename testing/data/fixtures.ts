import { v7 as uuidv7 } from 'uuid';
import type { ToolInput } from '../../shared/schemas/tool.js';

export const newID = () => uuidv7();

/** The built-in bundle (calculator, ask-user, …) every core has. */
export const CORE_BUNDLE = '01a2008d-7400-7000-8000-03e7f090115c';

/** A minimal valid HTTP tool definition, with overrides. */
export function httpTool(overrides: Partial<ToolInput> = {}): ToolInput {
  return {
    displayName: 'Weather report',
    description: 'Fetch current weather for a city',
    tags: ['weather'],
    type: 'http',
    argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'object' },
    impl: { method: 'GET', urlTemplate: 'https://api.example.com/weather/${city}' },
    ...overrides,
  };
}

export function localTool(func: string, overrides: Partial<ToolInput> = {}): ToolInput {
  return {
    displayName: `Local ${func}`,
    type: 'local',
    argSchema: { type: 'object', properties: {} },
    impl: { func },
    ...overrides,
  };
}
