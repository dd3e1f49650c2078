import type { OperationDefinition } from '../operation.js';
import { appHealth, appInfo } from './app.js';

/**
 * The operation table: the single list of everything the core can be asked
 * to do. Keys are the operation names used over IPC and by the typed client.
 */
export const operations = {
  'app.info': appInfo,
  'app.health': appHealth,
} as const satisfies Record<string, OperationDefinition>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.hasOwn(operations, value);
}
