"""Telling what stopped a call (as the wasmtime host's `trap.rs` and the
Node host's runner): which limit was hit, or what the component said when
it panicked. The host only classifies; the component words the reply
(`failed`) and the reason of a failure without one (`describe-failure`)."""

from __future__ import annotations

import re

from wasmtime.component import Variant

from .values import record
from .wasi import ExitCalled

#: The longest panic message passed on.
MAX_PANIC_CHARS = 400
#: What Rust prints on stderr when an allocation fails.
_ALLOCATION_FAILED = re.compile(r"memory allocation of (\d+) bytes failed")
PAGE = 64 * 1024


class Trapped(Exception):
    """A call that did not complete: its failure kind and its writes."""

    def __init__(self, kind: Variant, writes: str = "not-applied"):
        super().__init__(kind.tag)
        self.kind = kind
        self.writes = writes


def panic_message(stderr: str) -> str | None:
    """`panicked at src/x.rs:1:2: message` from Rust's panic output."""
    at = stderr.find("panicked at ")
    if at < 0:
        return None
    lines = stderr[at:].splitlines()
    location = lines[0].rstrip(":")
    message = []
    for line in lines[1:]:
        if line.startswith("note: "):
            break
        if line.strip():
            message.append(line.strip())
    out = f"{location}: {' '.join(message)}"
    if len(out) > MAX_PANIC_CHARS:
        out = out[:MAX_PANIC_CHARS] + "…"
    return out.rstrip(": ").rstrip(":")


def _trap_text(message: str) -> str:
    """The trap itself from wasmtime's error text (`wasm trap: …`)."""
    m = re.search(r"wasm trap: ([^\n]+)", message)
    if m:
        return m.group(1).strip()
    return message.strip().splitlines()[-1].strip() if message.strip() else message


def out_of_memory(bytes_: int, limit: int) -> Variant:
    """The `out-of-memory` failure kind."""
    return Variant("out-of-memory", record(bytes=bytes_, limit=limit))


def classify(error: BaseException, stderr: str, timeout_ms: int, memory_limit: int) -> Variant:
    """The failure kind of `error`, raised while the component ran."""
    message = str(error)
    if isinstance(error, ExitCalled):
        return Variant("trapped", message)
    if "wasm trap: interrupt" in message:
        return Variant("timed-out", timeout_ms)
    if "exceeds memory limits" in message or "memory minimum size" in message:
        return out_of_memory(memory_limit + PAGE, memory_limit)
    # wasmtime-py's limiter makes `memory.grow` past the cap fail quietly;
    # Rust then reports the failed allocation on stderr and aborts.
    allocation = _ALLOCATION_FAILED.search(stderr)
    if allocation:
        return out_of_memory(memory_limit + int(allocation.group(1)), memory_limit)
    from wasmtime import WasmtimeError

    if not isinstance(error, WasmtimeError):
        # A failure of the host's own Python code during the call.
        return Variant("trapped", f"{type(error).__name__}: {message}")
    trap = _trap_text(message)
    if "unreachable" in trap and not stderr.strip():
        # wasmtime-py has no resource limiter that traps, nor a way to read
        # a component's memory size: a `memory.grow` past the cap just
        # fails, and the component aborts without a word where the
        # allocation was the canonical ABI's (an argument copied in). Every
        # other abort of the component prints its panic first, so a silent
        # `unreachable` is the cap.
        return out_of_memory(memory_limit + PAGE, memory_limit)
    panic = panic_message(stderr)
    return Variant("trapped", f"{panic} ({trap})" if panic else trap)
