"""The MCP server's stdio around the SDK's: stdin read in bounded lines,
as the native server bounds it (a line over 16 MiB is dropped unread, its
bytes skipped, never held, and answered as malformed), and the end of
input held back until every request already read has been answered (the
SDK alone would drop answers still in flight when stdin closes; the
native and Node servers answer them)."""

from __future__ import annotations

import json
from typing import Any, BinaryIO, Callable

import anyio


class Answers:
    """Counts the requests read and the answers written."""

    def __init__(self) -> None:
        self.requests = 0
        self.answered = 0
        self.changed = anyio.Event()

    def read(self, line: str) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return
        if isinstance(message, dict) and "method" in message and "id" in message:
            self.requests += 1

    def wrote(self, line: str) -> None:
        if '"method"' in line[:200] and '"result"' not in line and '"error"' not in line:
            return
        self.answered += 1
        self.changed.set()
        self.changed = anyio.Event()

    async def all_answered(self) -> None:
        while self.answered < self.requests:
            await self.changed.wait()


class CountingStdout:
    """The SDK's stdout, counting the answers it writes."""

    def __init__(self, raw: BinaryIO, answers: Answers):
        self.raw = raw
        self.answers = answers

    async def write(self, text: str) -> None:
        data = text.encode("utf-8")
        await anyio.to_thread.run_sync(self.raw.write, data)
        self.answers.wrote(text)

    async def flush(self) -> None:
        await anyio.to_thread.run_sync(self.raw.flush)

#: The longest line the server reads (the native server's bound).
MAX_LINE_BYTES = 16 << 20
_CHUNK = 1 << 16


class BoundedStdin:
    """An async iterator of stdin's lines (text), each at most
    MAX_LINE_BYTES; a longer line yields a line that is not JSON, so the
    SDK answers it as a parse error."""

    def __init__(self, raw: BinaryIO, warn: Callable[[str], None], answers: Answers):
        self.raw = raw
        self.answers = answers
        self.warn = warn
        self.buffer = b""
        self.eof = False

    def __aiter__(self) -> "BoundedStdin":
        return self

    def _read(self) -> bytes:
        return self.raw.read1(_CHUNK) if hasattr(self.raw, "read1") else self.raw.read(_CHUNK)

    async def __anext__(self) -> str:
        skipping = False
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line, self.buffer = self.buffer[: newline + 1], self.buffer[newline + 1 :]
                if skipping:
                    return self._too_long()
                text = line.decode("utf-8", "replace")
                self.answers.read(text)
                return text
            if len(self.buffer) > MAX_LINE_BYTES:
                skipping = True
                self.buffer = b""
            if self.eof:
                if self.buffer and not skipping:
                    line, self.buffer = self.buffer, b""
                    text = line.decode("utf-8", "replace")
                    self.answers.read(text)
                    return text
                if skipping:
                    return self._too_long()
                await self.answers.all_answered()
                raise StopAsyncIteration
            chunk: Any = await anyio.to_thread.run_sync(self._read)
            if not chunk:
                self.eof = True
            else:
                self.buffer += chunk

    def _too_long(self) -> str:
        self.warn(f"a line longer than {MAX_LINE_BYTES >> 20} MiB was dropped unread")
        return "\x00line too long\n"
