// The component's boundary types, as jco generates them from the WIT at
// build time (generated/interfaces/*.d.ts): one definition, never a
// hand-kept copy.

export type {
  CallContext,
  ErrorCode,
  ToolError,
  ToolReply,
} from "../generated/interfaces/tasklists-component-types.js";
export type {
  CallFailure,
  FailureKind,
  SizeLimit,
  ToolAnnotations,
  ToolInfo,
  WriteState,
} from "../generated/interfaces/tasklists-component-tools.js";
export type {
  Choice,
  CommandEffect,
  CommandInfo,
  CommandOutput,
  Completion,
  Confirmation,
  DashboardInput,
  DashboardScreen,
  DashboardView,
  InboxOutput,
  InboxView,
  KeyBinding,
  KeyInput,
  Line,
  Notice,
  PersonDone,
  PersonRefused,
  PersonReply,
  PersonRequest,
  Span,
  StoreDown,
  Style,
  WidgetAction,
  WidgetChange,
  WidgetMode,
  WidgetView,
} from "../generated/interfaces/tasklists-component-ui.js";

/** What an export returning a WIT `result` answered: its value, or the component's refusal. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: import("../generated/interfaces/tasklists-component-types.js").ToolError };
