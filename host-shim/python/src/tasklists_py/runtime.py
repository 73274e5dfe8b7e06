"""The process-wide runtime: one wasmtime engine with epoch interruption,
its ticker thread (ticking only while a call runs), and the component,
compiled once and cached on disk as the wasmtime host caches it."""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from importlib import metadata, resources
from pathlib import Path

import wasmtime
from wasmtime import Config, Engine
from wasmtime.component import Component

from .errors import HostError
from .limits import EPOCH_TICK_MS

#: Where the component sits in a checkout once the workspace built it.
_CHECKOUT_WASM = Path(__file__).resolve().parents[4] / "target/guest/wasm32-wasip2/guest/tasklists_guest.wasm"
#: The command that builds it there.
BUILD_COMMAND = "cargo build --locked -p tasklists-guest --profile guest --target wasm32-wasip2 --target-dir target/guest"
#: Native stack the component may use (as the wasmtime host).
MAX_WASM_STACK = 1 << 20


def component_bytes() -> tuple[bytes, str]:
    """The component's bytes and where they came from: $TASKLISTS_GUEST_WASM,
    else the copy shipped in the package, else a checkout's build."""
    given = os.environ.get("TASKLISTS_GUEST_WASM")
    if given:
        return Path(given).read_bytes(), given
    shipped = resources.files("tasklists_py").joinpath("tasklists.wasm")
    if shipped.is_file():
        return shipped.read_bytes(), str(shipped)
    if _CHECKOUT_WASM.is_file():
        return _CHECKOUT_WASM.read_bytes(), str(_CHECKOUT_WASM)
    raise HostError("not-built", f"the tasklists component is missing from this package; build it with: {BUILD_COMMAND}")


def cache_dir() -> Path | None:
    """Where compiled components are kept (as the wasmtime host's default)."""
    for key, tail in (("TASKLISTS_CACHE_DIR", ""), ("XDG_CACHE_HOME", "tasklists")):
        value = os.environ.get(key)
        if value and os.path.isabs(value):
            return Path(value) / tail if tail else Path(value)
    home = os.environ.get("HOME")
    return Path(home) / ".cache/tasklists" if home else None


class Runtime:
    """The engine, the compiled component and the epoch ticker."""

    def __init__(self) -> None:
        config = Config()
        config.epoch_interruption = True
        config.max_wasm_stack = MAX_WASM_STACK
        self.engine = Engine(config)
        wasm, self.source = component_bytes()
        self.sha256 = hashlib.sha256(wasm).hexdigest()
        self.component = self._load(wasm)
        self._running = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        threading.Thread(target=self._tick, name="tasklists-epoch", daemon=True).start()

    def _load(self, wasm: bytes) -> Component:
        directory = cache_dir()
        name = f"python-wasmtime-{metadata.version('wasmtime')}-{self.sha256[:32]}.cwasm"
        if directory is not None:
            path = directory / name
            try:
                return Component.deserialize_file(self.engine, str(path))
            except Exception:
                pass  # missing or damaged: compile again and replace it
        try:
            component = Component(self.engine, wasm)
        except wasmtime.WasmtimeError as e:
            raise HostError("component", f"the tasklists component cannot be compiled: {e}") from None
        if directory is not None:
            try:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
                with os.fdopen(fd, "wb") as f:
                    f.write(component.serialize())
                os.replace(tmp, directory / name)
            except OSError:
                pass  # the cache is an optimisation only
        return component

    def _tick(self) -> None:
        tick = EPOCH_TICK_MS / 1000.0
        while True:
            self._wake.wait()
            while self._running > 0:
                self.engine.increment_epoch()
                threading.Event().wait(tick)
            self._wake.clear()
            if self._running > 0:
                self._wake.set()

    def call_started(self) -> None:
        """A call runs: the epoch ticks until `call_ended`."""
        with self._lock:
            self._running += 1
            self._wake.set()

    def call_ended(self) -> None:
        """A call is over."""
        with self._lock:
            self._running -= 1


def deadline_ticks(timeout_ms: int) -> int:
    """Epoch ticks for `timeout_ms`: rounded up, plus one (the next tick may
    come at any moment after the deadline is set); zero traps at once."""
    if timeout_ms <= 0:
        return 0
    return -(-timeout_ms // EPOCH_TICK_MS) + 1


_RUNTIME: Runtime | None = None
_RUNTIME_LOCK = threading.Lock()


def runtime() -> Runtime:
    """The process's runtime, made on first use."""
    global _RUNTIME
    with _RUNTIME_LOCK:
        if _RUNTIME is None:
            _RUNTIME = Runtime()
        return _RUNTIME
