"""The MCP server's stdio around the SDK's stream of messages: stdin read
in bounded lines, as the native server bounds it (a line over 16 MiB is
answered -32600 under its id, found at either end, and skipped without
being held whole), every line decoded as the native server decodes it
(`mcp_decode.py`: a broken line answered, never dropped), and the end of
input held back until every request already read has been answered (the
SDK alone would drop answers still in flight when stdin closes; the
native and Node servers answer them)."""

from __future__ import annotations

import json
from typing import Any, BinaryIO, Callable

import anyio

from .mcp_decode import decode, oversized

#: The longest line the server reads (the native server's bound).
MAX_LINE_BYTES = 16 << 20
#: What is kept of each end of a line over the bound, to find its id.
_KEPT_END = 64 << 10
_CHUNK = 1 << 16


class Answers:
    """The requests passed on that are still owed an answer, by id: an
    answer written, or a cancellation from the client (which the SDK does
    not answer), settles one."""

    def __init__(self) -> None:
        self.pending: dict[Any, int] = {}
        self.changed = anyio.Event()

    def _key(self, id: Any) -> Any:
        return (type(id).__name__, id)

    def read(self, message: dict[str, Any]) -> None:
        """A message passed on to the SDK."""
        if "id" in message and "method" in message:
            key = self._key(message["id"])
            self.pending[key] = self.pending.get(key, 0) + 1
        elif message.get("method") == "notifications/cancelled":
            params = message.get("params")
            if isinstance(params, dict) and "requestId" in params:
                self.settle(params["requestId"])

    def settle(self, id: Any) -> None:
        key = self._key(id)
        if key in self.pending:
            self.pending[key] -= 1
            if self.pending[key] <= 0:
                del self.pending[key]
            self.changed.set()
            self.changed = anyio.Event()

    async def all_answered(self) -> None:
        while self.pending:
            await self.changed.wait()


class CountingStdout:
    """The process's stdout, whole lines at a time, counting the SDK's answers."""

    def __init__(self, raw: BinaryIO, answers: Answers):
        self.raw = raw
        self.answers = answers
        self.lock = anyio.Lock()

    async def write(self, text: str, *, counted: bool = True) -> None:
        data = text.encode("utf-8")
        async with self.lock:
            await anyio.to_thread.run_sync(self.raw.write, data)
            await anyio.to_thread.run_sync(self.raw.flush)
        if counted:
            answered = _answered_id(text)
            if answered is not None:
                self.answers.settle(answered[0])

    async def flush(self) -> None:
        pass  # every write is flushed with it


def _answered_id(text: str) -> tuple[Any] | None:
    """The id an answer line answers (in a tuple), or None for other lines."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    if isinstance(message, dict) and "id" in message and "method" not in message:
        return (message["id"],)
    return None


class BoundedStdin:
    """An async iterator of the messages of stdin, as JSON text lines for
    the SDK; what is no message is answered here or skipped."""

    def __init__(self, raw: BinaryIO, warn: Callable[[str], None], stdout: CountingStdout):
        self.raw = raw
        self.warn = warn
        self.stdout = stdout
        self.answers = stdout.answers
        self.buffer = b""
        self.eof = False

    def __aiter__(self) -> "BoundedStdin":
        return self

    def _read(self) -> bytes:
        return self.raw.read1(_CHUNK) if hasattr(self.raw, "read1") else self.raw.read(_CHUNK)

    async def _fill(self) -> None:
        chunk: Any = await anyio.to_thread.run_sync(self._read)
        if chunk:
            self.buffer += chunk
        else:
            self.eof = True

    async def _line(self) -> tuple[bytes, bytes | None] | None:
        """The next line (without its newline), or for one over the bound
        (its head, its tail); None at the end of input."""
        head: bytes | None = None
        tail = b""
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line, self.buffer = self.buffer[:newline], self.buffer[newline + 1 :]
                if head is not None:
                    return head, (tail + line)[-_KEPT_END:]
                return line, None
            if head is None and len(self.buffer) > MAX_LINE_BYTES:
                head, tail, self.buffer = self.buffer[:_KEPT_END], self.buffer[-_KEPT_END:], b""
            elif head is not None and len(self.buffer) > _KEPT_END:
                tail, self.buffer = (tail + self.buffer)[-_KEPT_END:], b""
            if self.eof:
                if head is not None:
                    line, self.buffer = self.buffer, b""
                    return head, (tail + line)[-_KEPT_END:]
                if self.buffer:
                    line, self.buffer = self.buffer, b""
                    return line, None
                return None
            await self._fill()

    async def __anext__(self) -> str:
        while True:
            read = await self._line()
            if read is None:
                await self.answers.all_answered()
                raise StopAsyncIteration
            line, tail = read
            if tail is not None:
                decoded = oversized(line, tail, MAX_LINE_BYTES)
            else:
                decoded = decode(line)
            if decoded.kind == "message":
                self.answers.read(json.loads(decoded.text))
                return decoded.text + "\n"
            if decoded.kind == "refuse":
                self.warn(decoded.why)
                await self.stdout.write(decoded.text + "\n", counted=False)
            elif decoded.why:
                self.warn(decoded.why)
