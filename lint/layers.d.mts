import type { Rule } from 'eslint';

export interface Layer {
  name: string;
  files: string[];
  may: string[];
}

export const LAYERS: Layer[];
export function testExtras(layer: Layer): string[];
export function layerTable(): string;
export function layerOf(relative: string): Layer | null;
export const layersRule: Rule.RuleModule;
declare const plugin: { rules: { layers: Rule.RuleModule } };
export default plugin;
