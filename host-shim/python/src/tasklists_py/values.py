"""Converting between wasmtime-py's component values and plain Python:
records become dicts (their dashed field names with underscores),
variants `{"tag": …, "val": …}`, and back for the few records a host
passes in."""

from __future__ import annotations

from typing import Any

from wasmtime.component import Record, Variant


def record(**fields: Any) -> Record:
    """A WIT record from keyword fields (`agent_id` names `agent-id`)."""
    r = Record()
    for key, value in fields.items():
        setattr(r, key.replace("_", "-"), value)
    return r


def to_python(value: Any) -> Any:
    """A component value as plain Python data."""
    if isinstance(value, Record):
        return {k.replace("-", "_"): to_python(v) for k, v in value.__dict__.items()}
    if isinstance(value, Variant):
        out: dict[str, Any] = {"tag": value.tag}
        if value.payload is not None:
            out["val"] = to_python(value.payload)
        return out
    if isinstance(value, list):
        return [to_python(v) for v in value]
    if isinstance(value, tuple):
        return tuple(to_python(v) for v in value)
    return value


def line_text(line: list[Any]) -> str:
    """One rendered line (a list of spans) as plain text."""
    return "".join(span["text"] if isinstance(span, dict) else getattr(span, "text") for span in line)
