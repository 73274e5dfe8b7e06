"""The deny-all WASI the component runs in, written here as the Node host
writes its own (`wasi.ts`), mirroring the wasmtime host's `sandbox.rs`:
what `wasm32-wasip2` std imports is satisfied with nothing behind it.

- no environment, no arguments, no stdin, no terminal;
- `exit` traps the call instead of ending the process;
- stdout is a sink; stderr is captured up to a bound (Rust writes its
  panic message there just before trapping, and the host quotes it);
- randomness comes from the platform's CSPRNG (ids are random).

wasmtime-py's own `add_wasip2` is not used: it would hand the component
a real wall clock and the process's stdio unless each were shut, and a
WASI it grows later would open doors silently. The only real
capabilities are the `store` and the `clock`."""

from __future__ import annotations

import os
from typing import Any

from wasmtime.component import LinkerInstance, ResourceHost, ResourceType

from .limits import STDERR_CAPTURE_BYTES

WASI = "0.2.6"
# Host resource type ids (any distinct numbers).
INPUT_STREAM, OUTPUT_STREAM, POLLABLE, IO_ERROR, TERMINAL_INPUT, TERMINAL_OUTPUT = range(101, 107)
STDIN, STDOUT, STDERR = 0, 1, 2


class ExitCalled(Exception):
    """The component asked to exit: it traps the call."""

    def __init__(self) -> None:
        super().__init__("the component called exit, which the sandbox does not allow")


class StderrCapture:
    """The bounded capture of the component's stderr."""

    def __init__(self, limit: int = STDERR_CAPTURE_BYTES):
        self.limit = limit
        self.chunks: list[bytes] = []
        self.kept = 0

    def write(self, data: bytes) -> None:
        room = self.limit - self.kept
        if room > 0:
            kept = bytes(data[:room])
            self.chunks.append(kept)
            self.kept += len(kept)

    @property
    def written(self) -> bool:
        """Whether anything was written since the last `clear`."""
        return self.kept > 0

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", "replace")

    def clear(self) -> None:
        self.chunks = []
        self.kept = 0


class _Random:
    """Random bytes drawn from the CSPRNG a page at a time."""

    def __init__(self) -> None:
        self.pool = b""
        self.at = 0

    def u64(self) -> int:
        if self.at + 8 > len(self.pool):
            self.pool = os.urandom(4096)
            self.at = 0
        value = int.from_bytes(self.pool[self.at : self.at + 8], "little")
        self.at += 8
        return value


def _nothing(_store: Any, _rep: int) -> None:
    """Nothing to free: no WASI resource holds anything."""


def define(root: LinkerInstance, stderr: StderrCapture) -> None:
    """Defines the deny-all WASI interfaces the component imports."""
    rng = _Random()

    with root.add_instance(f"wasi:io/poll@{WASI}") as i:
        i.add_resource("pollable", ResourceType.host(POLLABLE), _nothing)
        # Every stream is always ready: nothing ever waits.
        i.add_func("[method]pollable.block", lambda _s, _self: None)
    with root.add_instance(f"wasi:io/error@{WASI}") as i:
        i.add_resource("error", ResourceType.host(IO_ERROR), _nothing)
    with root.add_instance(f"wasi:io/streams@{WASI}") as i:
        i.add_resource("input-stream", ResourceType.host(INPUT_STREAM), _nothing)
        i.add_resource("output-stream", ResourceType.host(OUTPUT_STREAM), _nothing)

        def write(store: Any, stream: Any, contents: bytes) -> None:
            # stdout is a sink; only stderr is kept.
            if stream.to_host(store).rep == STDERR:
                stderr.write(contents)
            return None

        i.add_func("[method]output-stream.check-write", lambda _s, _self: 1 << 20)
        i.add_func("[method]output-stream.write", write)
        i.add_func("[method]output-stream.blocking-flush", lambda _s, _self: None)
        i.add_func("[method]output-stream.subscribe", lambda _s, _self: ResourceHost.own(0, POLLABLE))
    with root.add_instance(f"wasi:cli/environment@{WASI}") as i:
        i.add_func("get-environment", lambda _s: [])
    with root.add_instance(f"wasi:cli/exit@{WASI}") as i:

        def exit_(_store: Any, _status: Any) -> None:
            raise ExitCalled()

        i.add_func("exit", exit_)
    for name, rep, kind in (("stdin", STDIN, INPUT_STREAM), ("stdout", STDOUT, OUTPUT_STREAM), ("stderr", STDERR, OUTPUT_STREAM)):
        with root.add_instance(f"wasi:cli/{name}@{WASI}") as i:
            i.add_func(f"get-{name}", lambda _s, rep=rep, kind=kind: ResourceHost.own(rep, kind))
    with root.add_instance(f"wasi:cli/terminal-input@{WASI}") as i:
        i.add_resource("terminal-input", ResourceType.host(TERMINAL_INPUT), _nothing)
    with root.add_instance(f"wasi:cli/terminal-output@{WASI}") as i:
        i.add_resource("terminal-output", ResourceType.host(TERMINAL_OUTPUT), _nothing)
    for name in ("stdin", "stdout", "stderr"):
        # No terminal, ever.
        with root.add_instance(f"wasi:cli/terminal-{name}@{WASI}") as i:
            i.add_func(f"get-terminal-{name}", lambda _s: None)
    with root.add_instance(f"wasi:random/random@{WASI}") as i:
        i.add_func("get-random-u64", lambda _s: rng.u64())
    with root.add_instance(f"wasi:random/insecure-seed@{WASI}") as i:
        i.add_func("insecure-seed", lambda _s: (rng.u64(), rng.u64()))
