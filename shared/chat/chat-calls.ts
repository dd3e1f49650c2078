import type { Chat, ChatMessage, PendingItem, ToolCall } from '../schemas/chat.js';

// Reading a chat's tool calls: the same answers in the core and the window.

export function isUnfinished(call: ToolCall): boolean {
  return call.status === 'queued' || call.status === 'running' || call.status === 'awaiting_approval' || call.status === 'awaiting_user';
}

export interface LocatedCall {
  message: ChatMessage;
  call: ToolCall;
}

export function callsOf(message: ChatMessage): ToolCall[] {
  if (message.role === 'assistant') return message.toolCalls;
  if (message.role === 'tool-run') return [message.call];
  return [];
}

export function allCalls(chat: Chat): LocatedCall[] {
  return chat.messages.flatMap((message) => callsOf(message).map((call) => ({ message, call })));
}

/** What the chat waits for, in the order the calls were made. */
export function pendingOf(chat: Chat): PendingItem[] {
  const items: PendingItem[] = [];
  for (const { message, call } of allCalls(chat)) {
    if ((call.status !== 'awaiting_approval' && call.status !== 'awaiting_user') || !call.tool) continue;
    items.push({
      callId: call.id,
      messageId: message.id,
      kind: call.status === 'awaiting_approval' ? 'approval' : 'question',
      tool: { name: call.name, displayName: call.tool.displayName, bundleName: call.tool.bundleName, bundleID: call.tool.bundleID, slug: call.tool.slug, version: call.tool.version },
      args: call.args,
      ...(call.approvalReason ? { reason: call.approvalReason } : {}),
      ...(call.approvalBy ? { approvalBy: call.approvalBy } : {}),
      ...(call.question ? { question: call.question.text, ...(call.question.choices ? { choices: call.question.choices } : {}) } : {}),
      ...(call.preview ? { preview: call.preview } : {}),
    });
  }
  return items;
}


/** A chat as chats.create makes it: no messages yet, the defaults filled in. */
export function blankChat(
  fields: Pick<Chat, 'id' | 'title' | 'providerId' | 'model' | 'createdAt'> & Partial<Pick<Chat, 'system' | 'hookContext' | 'tools' | 'maxTurns' | 'onToolError' | 'toolErrorLimit' | 'toolRuns' | 'parallelToolCalls' | 'temperature' | 'answerSchema'>>,
): Chat {
  const { createdAt, ...rest } = fields;
  return {
    tools: { mode: 'auto', selected: [] },
    maxTurns: 8,
    onToolError: 'continue',
    parallelToolCalls: true,
    ...rest,
    status: 'idle',
    pending: [],
    messages: [],
    alwaysAllowed: [],
    createdAt,
    updatedAt: createdAt,
  };
}
