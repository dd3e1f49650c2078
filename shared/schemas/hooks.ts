import { Type, type Static } from '@sinclair/typebox';

/**
 * Hooks in Claude Code's settings shape (VS Code reads the same files):
 * `{ "PreToolUse": [ { "matcher": "<pattern on the tool name>", "hooks": [ { "type": "command", "command": "…",
 * "timeout": 30 } ] } ] }`, so a `hooks` block copied from `.claude/settings.json` is taken as it is.
 */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SessionStart', 'SubagentStart', 'SubagentStop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** At most this many handlers in all: a file of 10,000 is refused whole, with the count. */
export const MAX_HOOK_HANDLERS = 200;

/** What every kind of handler may say besides what it runs. */
const handlerCommon = {
  /** Seconds before it is stopped (Claude Code's default: 60). */
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 600 })),
  /** Toolbelt's own: what a hook that times out or cannot start does to its call (default before a call: `refuse`). */
  on_failure: Type.Optional(Type.Union([Type.Literal('continue'), Type.Literal('refuse')])),
};
// Fields other apps add (Claude Code's `async`, `statusMessage`) are kept and not used.
const handlerOptions = { additionalProperties: true };

export const CommandHookSchema = Type.Object(
  {
    type: Type.Literal('command'),
    /** Run by the shell (`/bin/sh -c`, `cmd /c` on Windows), the call's JSON on its stdin. */
    command: Type.String({ minLength: 1, maxLength: 8_192 }),
    ...handlerCommon,
  },
  handlerOptions,
);
export type CommandHook = Static<typeof CommandHookSchema>;

export const HttpHookSchema = Type.Object(
  {
    type: Type.Literal('http'),
    /** POSTed the call's JSON; its answer is read as a command's stdout (2xx), or an error that blocks nothing. The host must be allowed. */
    url: Type.String({ pattern: '^https?://', maxLength: 2_000 }),
    ...handlerCommon,
  },
  handlerOptions,
);
export type HttpHook = Static<typeof HttpHookSchema>;

export const ScriptHookSchema = Type.Object(
  {
    type: Type.Literal('script'),
    /**
     * A script tool of the person's (`<bundle slug>/<slug>`, or its slug), run in Toolbelt's sandbox, no process
     * started: the call's fields are its parameters, by name (`tool_name`, `tool_input`, `hook_event_name`,
     * `toolbelt`, …), and it returns what a command would print (an object with `hookSpecificOutput`, `decision`,
     * …); a script that throws is an error that blocks nothing.
     */
    tool: Type.String({ minLength: 1, maxLength: 300 }),
    ...handlerCommon,
  },
  handlerOptions,
);
export type ScriptHook = Static<typeof ScriptHookSchema>;
export type HookHandler = CommandHook | HttpHook | ScriptHook;

export const HookMatcherSchema = Type.Object(
  {
    /** A pattern (RE2, the whole name) on the tool's names; absent, empty or `*`: every tool. */
    matcher: Type.Optional(Type.String({ maxLength: 1_000 })),
    hooks: Type.Array(Type.Union([CommandHookSchema, HttpHookSchema, ScriptHookSchema]), { minItems: 1, maxItems: MAX_HOOK_HANDLERS }),
  },
  { additionalProperties: false },
);
export type HookMatcher = Static<typeof HookMatcherSchema>;

export const HooksSchema = Type.Partial(Type.Object(Object.fromEntries(HOOK_EVENTS.map((event) => [event, Type.Array(HookMatcherSchema, { maxItems: MAX_HOOK_HANDLERS })])) as Record<HookEvent, ReturnType<typeof Type.Array<typeof HookMatcherSchema>>>), {
  additionalProperties: false,
});
export type Hooks = Static<typeof HooksSchema>;

/** The events a bundle's hooks may name: they are about its own tools' calls, not about chats. */
export const TOOL_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const satisfies readonly HookEvent[];

/** A bundle's hooks: the same shape, its tool events only. They travel in the bundle's ZIP and run only once the person switched them on. */
export const BundleHooksSchema = Type.Partial(
  Type.Object(Object.fromEntries(TOOL_HOOK_EVENTS.map((event) => [event, Type.Array(HookMatcherSchema, { maxItems: MAX_HOOK_HANDLERS })])) as Record<(typeof TOOL_HOOK_EVENTS)[number], ReturnType<typeof Type.Array<typeof HookMatcherSchema>>>),
  { additionalProperties: false },
);
export type BundleHooks = Static<typeof BundleHooksSchema>;

/** What the person switched on: the SHA-256 of the hooks they saw (hex), so hooks changed since are off again. */
export const HooksDigestSchema = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** One hook's run, as a call's result, the tester's trace and the activity show it. */
export const HookRunSchema = Type.Object(
  {
    event: Type.Union(HOOK_EVENTS.map((event) => Type.Literal(event))),
    /** The command as configured, cut to 200 characters. */
    handler: Type.String({ maxLength: 201 }),
    durationMs: Type.Number({ minimum: 0 }),
    /** What it decided: let the call go on, block it, have the person asked, or failed (not blocking). */
    decision: Type.Union([Type.Literal('continue'), Type.Literal('allow'), Type.Literal('deny'), Type.Literal('ask'), Type.Literal('block'), Type.Literal('error')]),
    /** Its reason or error, cut to 1,000 characters. */
    message: Type.Optional(Type.String({ maxLength: 1_001 })),
    /** It rewrote the call's input. */
    changedInput: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type HookRun = Static<typeof HookRunSchema>;
