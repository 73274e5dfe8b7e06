"""The Python host: the tasklists component run by wasmtime-py, its
`store` served by this process's SQLite (or PostgreSQL) connection, run
the way the wasmtime host runs it (`component_host.rs`): a deadline per
call (epoch interruption), a memory cap (store limits), every call
bracketed by the session (a transaction left open rolls back), a trap
discarding the instance, and every failure worded by the component
(`failed`, `describe-failure`). Nothing of the contract is decided here."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from typing import Any

from wasmtime import Store
from wasmtime.component import Instance, Linker, Variant

from . import fastpath, limits, store_import, wasi
from .deadline import Deadline
from .errors import HostError
from .failure import Trapped, classify
from .location import is_postgres, redact, resolve
from .runtime import Runtime, deadline_ticks, runtime
from .session import Session
from .values import line_text, record, to_python

fastpath.apply()

TOOLS = "tasklists:component/tools@0.1.0"
UI = "tasklists:component/ui@0.1.0"


class ToolCallError(Exception):
    """A tool call the component refused or could not finish: the
    contract's error `code`, `message` and `hint`, and `text`, what an
    agent is shown."""

    def __init__(self, code: str, message: str, hint: str, text: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.hint, self.text = code, message, hint, text


@dataclass(frozen=True)
class Reply:
    """What an agent receives for one call, decided by the component."""

    #: The content text: the summary line, a newline and the compact JSON
    #: (or the error object).
    text: str
    #: The structured content: the result, or `{"error": {…}}`.
    data: dict[str, Any]
    #: Whether it is an error reply.
    is_error: bool
    #: The summary line (success), or the error's message.
    summary: str


@dataclass(frozen=True)
class ToolInfo:
    """One published tool, from the component's catalogue."""

    name: str
    title: str
    description: str
    #: The JSON Schema of the tool's input object.
    input_schema: dict[str, Any]
    #: MCP annotations: read_only, destructive, idempotent, open_world.
    annotations: dict[str, bool]
    prompt_snippet: str
    prompt_guidelines: list[str]


def _reply(value: Any) -> Reply:
    outcome = value.outcome
    data = json.loads(value.structured)
    if isinstance(outcome, str):
        return Reply(value.text, data, False, outcome)
    return Reply(value.text, data, True, outcome.message)


class _Live:
    """A live instance and the wasmtime store it lives in."""

    def __init__(self, store: Store, instance: Instance):
        self.store = store
        self.instance = instance
        self.calls = 0


class Host:
    """The tasklists component behind one store connection.

    `db` is a database file or a PostgreSQL connection string (default:
    $TASKLISTS_DB, else the user's data directory). `agent_id`,
    `pin_agent`, `workspace` and `thread` are the call context every call
    carries (as the native `--agent-id`, `--pin-agent`, `--workspace`,
    `--thread`). Calls run one at a time (a lock); a Host may be shared
    between threads."""

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        agent_id: str | None = None,
        *,
        pin_agent: bool = False,
        workspace: str | None = None,
        thread: str | None = None,
        person: str | None = None,
        call_timeout_ms: int = limits.CALL_TIMEOUT_MS,
        memory_limit_bytes: int = limits.MEMORY_LIMIT_BYTES,
        max_params_bytes: int = limits.MAX_PARAMS_BYTES,
        busy_timeout_ms: int = limits.BUSY_TIMEOUT_MS,
    ):
        location = resolve(db)
        if location is None:
            raise HostError("no-database", "no database: pass --db, set TASKLISTS_DB, XDG_DATA_HOME or HOME")
        if pin_agent and not agent_id:
            raise HostError("invalid-option", "--pin-agent needs an identity to pin: pass --agent-id or set TASKLISTS_AGENT_ID")
        for name, value in (("call_timeout_ms", call_timeout_ms), ("memory_limit_bytes", memory_limit_bytes),
                            ("max_params_bytes", max_params_bytes), ("busy_timeout_ms", busy_timeout_ms)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise HostError("invalid-option", f"{name} must be a whole number from 0, not {value!r}")
        self.db = location
        self.context = {
            "agent_id": agent_id or None,
            "agent_pinned": bool(pin_agent),
            "workspace": workspace if workspace is not None else os.getcwd(),
            "thread": thread,
            "person": person,
        }
        self.call_timeout_ms = call_timeout_ms
        self.memory_limit_bytes = memory_limit_bytes
        self.max_params_bytes = max_params_bytes
        if is_postgres(location):
            from .postgres_store import PostgresBackend

            backend: Any = PostgresBackend(location, busy_timeout_ms, memory_limit_bytes)
        else:
            from .sqlite_store import SqliteBackend

            backend = SqliteBackend(location, busy_timeout_ms, memory_limit_bytes)
        self.session = Session(backend)
        self._deadline = Deadline()
        self._rt: Runtime = runtime()
        self._stderr = wasi.StderrCapture()
        self._linker = Linker(self._rt.engine)
        with self._linker.root() as root:
            wasi.define(root, self._stderr)
            store_import.define(root, lambda: self.session)
        self._live: _Live | None = None
        self._lock = threading.RLock()
        self._exports: dict[tuple[str, str], Any] = {}

    @property
    def location(self) -> str:
        """The store as it may be shown (a connection string without its password)."""
        return redact(self.db)

    # --- the call lifecycle ------------------------------------------------

    def _ctx(self, overrides: dict[str, Any] | None = None) -> Any:
        ctx = dict(self.context)
        if overrides:
            ctx.update(overrides)
        return record(**ctx)

    def _export(self, iface: str, name: str) -> Any:
        key = (iface, name)
        index = self._exports.get(key)
        if index is None:
            component = self._rt.component
            index = component.get_export_index(name, component.get_export_index(iface))
            self._exports[key] = index
        return index

    def _instantiate(self, timeout_ms: int, memory_limit: int) -> _Live:
        self._stderr.clear()
        store = Store(self._rt.engine)
        store.set_limits(memory_size=memory_limit, table_elements=1 << 16, instances=64, tables=64, memories=16)
        # Instantiation runs the component's initializers: bound them too.
        store.set_epoch_deadline(deadline_ticks(timeout_ms))
        try:
            instance = self._linker.instantiate(store, self._rt.component)
        except Exception as e:  # noqa: BLE001 - any failure is classified
            raise Trapped(classify(e, self._stderr.text(), timeout_ms, memory_limit)) from None
        return _Live(store, instance)

    def _invoke(self, iface: str, name: str, args: tuple[Any, ...], *, reply: bool = False) -> Any:
        """Runs one export on a live instance within the call's limits, then
        rolls back whatever it left open. A trap discards the instance."""
        timeout_ms = self.call_timeout_ms
        memory_limit = self.memory_limit_bytes
        if reply:
            timeout_ms = max(timeout_ms, limits.REPLY_TIMEOUT_MS)
            memory_limit = max(memory_limit, limits.REPLY_MEMORY_BYTES)
        self._rt.call_started()
        try:
            fresh = self._live is None
            live = self._live or self._instantiate(timeout_ms, memory_limit)
            self._live = None
            live.store.set_epoch_deadline(deadline_ticks(timeout_ms))
            self.session.begin_call(self._deadline)
            self._deadline.start(timeout_ms * limits.SQL_BUDGET_SHARE)
            error: BaseException | None = None
            try:
                func = live.instance.get_func(live.store, self._export(iface, name))
                value = func(live.store, *args)
            except Exception as e:  # noqa: BLE001 - a trap or a host failure
                error = e
            self._deadline.clear()
            left_open = self.session.end_call()
            writes = self.session.write_state
        finally:
            self._rt.call_ended()
        if error is not None:
            raise Trapped(classify(error, self._stderr.text(), timeout_ms, memory_limit), writes)
        if left_open:
            # Returning with a write still open is a component bug that
            # would silently lose the write: say so instead.
            raise Trapped(Variant("left-open"), writes)
        live.calls += 1
        # A reply's fresh instance is not kept: it ran under other limits.
        keep = not (reply and fresh)
        if keep and live.calls < limits.MAX_CALLS_PER_INSTANCE and not self._stderr.written:
            self._live = live
        return value

    def _failed(self, whole_request: bool, kind: Variant, writes: str) -> Any:
        failure = record(whole_request=whole_request, kind=kind, writes=writes)
        try:
            return self._invoke(TOOLS, "failed", (failure,), reply=True)
        except Trapped as t:
            raise HostError("trap", self._describe(t.kind)) from None

    def _describe(self, kind: Variant) -> str:
        try:
            return str(self._invoke(TOOLS, "describe-failure", (kind,), reply=True))
        except Trapped:
            return f"the component failed ({kind.tag}: {kind.payload})"

    def _tool_call(self, whole_request: bool, size: int, name: str, args: tuple[Any, ...]) -> Any:
        with self._lock:
            if size > self.max_params_bytes:
                limit = record(bytes=size, limit=self.max_params_bytes)
                return self._failed(whole_request, Variant("too-large", limit), "not-applied")
            try:
                return self._invoke(TOOLS, name, args)
            except Trapped as t:
                return self._failed(whole_request, t.kind, t.writes)

    def _plain(self, iface: str, name: str, *args: Any) -> Any:
        """Runs an export without a reply of its own: a failure is a
        HostError worded by the component."""
        with self._lock:
            try:
                return self._invoke(iface, name, args)
            except Trapped as t:
                raise HostError("trap", self._describe(t.kind)) from None

    # --- the tools ---------------------------------------------------------

    def reply(self, tool: str, arguments: str | dict[str, Any], **context: Any) -> Reply:
        """Runs the agent's call as sent: `arguments` the JSON text (or
        object) `{"action": …, "params": {…}}`. The reply is the
        component's whatever happened (a refusal, a trap, a timeout, the
        memory cap, arguments over the size limit). `context` overrides
        the host's call context for this call (`agent_id=…`)."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        size = len(text.encode("utf-8"))
        return _reply(self._tool_call(True, size, "call", (tool, text, self._ctx(context))))

    def call(self, tool: str, request: str | dict[str, Any], **context: Any) -> tuple[str, dict[str, Any]]:
        """Runs a call; returns (summary line, data). A refused or failed
        call raises ToolCallError with the component's words."""
        reply = self.reply(tool, request, **context)
        if reply.is_error:
            error = reply.data.get("error", {})
            raise ToolCallError(error.get("code", "internal"), error.get("message", reply.summary), error.get("hint", ""), reply.text)
        return reply.summary, reply.data

    def call_action(self, tool: str, action: str, params: str | dict[str, Any] = "", **context: Any) -> Reply:
        """Runs a call whose action and params are held apart (params as a
        JSON object or text, "" for none)."""
        text = params if isinstance(params, str) else json.dumps(params)
        size = len(text.encode("utf-8")) + len(action.encode("utf-8"))
        return _reply(self._tool_call(False, size, "call-action", (tool, action, text, self._ctx(context))))

    def tools(self) -> list[ToolInfo]:
        """The five tools: names, descriptions, JSON Schemas, annotations,
        prompt texts, from the component's catalogue, for any framework."""
        out = []
        for t in self._plain(TOOLS, "catalogue"):
            a = getattr(t, "annotations")
            out.append(ToolInfo(
                name=t.name,
                title=t.title,
                description=t.description,
                input_schema=json.loads(getattr(t, "input-schema")),
                annotations={
                    "read_only": getattr(a, "read-only"),
                    "destructive": a.destructive,
                    "idempotent": a.idempotent,
                    "open_world": getattr(a, "open-world"),
                },
                prompt_snippet=getattr(t, "prompt-snippet"),
                prompt_guidelines=list(getattr(t, "prompt-guidelines")),
            ))
        return out

    # --- the views ---------------------------------------------------------

    def widget(self, *, width: int = 80, full: bool = False, list_id: str | None = None,
               every_list: bool = False, **context: Any) -> list[str]:
        """The widget's lines (Pi's, `tasklists watch`): the lists visible in
        the context in a frame, as plain text; none: nothing to show."""
        view = record(mode="full" if full else "compact", width=width, list_id=list_id, every_list=every_list)
        lines = to_python(self._plain(UI, "widget", self._ctx(context), view))
        return [line_text(line) for line in lines]

    def commands(self) -> list[dict[str, str]]:
        """The slash commands (name, description, usage), in menu order."""
        return to_python(self._plain(UI, "commands"))

    def run_command(self, name: str, args: str = "", *, width: int = 80, confirmed: bool = False,
                    **context: Any) -> dict[str, Any]:
        """Runs a slash command (`task-lists`, `tasks <list_id>`, …): its
        effect as `{"tag": "show" | "confirm" | "pick" | "set-widget", "val": …}`."""
        return to_python(self._plain(UI, "run-command", name, args, self._ctx(context), width, confirmed))

    def render_reply(self, tool: str, arguments: str | dict[str, Any], reply: Reply) -> list[str]:
        """The component's rendering of a reply, as plain text lines."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        outcome: Any
        if reply.is_error:
            e = reply.data["error"]
            outcome = record(code=e["code"].replace("_", "-"), message=e["message"], hint=e.get("hint", ""))
        else:
            outcome = reply.summary
        raw = record(text=reply.text, structured=json.dumps(reply.data, separators=(",", ":")), outcome=outcome)
        return [line_text(line) for line in to_python(self._plain(UI, "render-reply", tool, text, raw))]

    def compaction_memory(self, **context: Any) -> str:
        """The agent's current claims as compact text (after a compaction)."""
        return str(self._plain(UI, "compaction-memory", self._ctx(context)))

    def close(self) -> None:
        """Drops the instance and closes the store connection."""
        with self._lock:
            self._live = None
            self.session.backend.close()

    def __enter__(self) -> "Host":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()
