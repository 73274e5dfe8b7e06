"""Memoized type information for wasmtime-py's component values.

wasmtime-py (51.0.0, pinned) asks the C API again for a type's cases,
fields or element type every time it converts a value: converting the
rows of one query (a `list<list<value>>`) asked for the `value` variant's
five cases once per cell, through several FFI calls each, and that was
most of a call's cost (profiled: 60% of a claim). A type object never
changes, so each of these answers is kept on the object that was asked:
the objects of one call's types are then asked once. Applied once, at
import; nothing else of wasmtime-py is changed."""

from __future__ import annotations

from typing import Any, Callable

from wasmtime.component import _types as t


def _memo_property(cls: type, name: str) -> None:
    original = getattr(cls, name)
    getter: Callable[[Any], Any] = original.fget
    key = f"_tasklists_{name}"

    def get(self: Any) -> Any:
        try:
            return self.__dict__[key]
        except KeyError:
            value = self.__dict__[key] = getter(self)
            return value

    setattr(cls, name, property(get, doc=original.__doc__))


def _memo_method(cls: type, name: str) -> None:
    method = getattr(cls, name)
    key = f"_tasklists_{name}"

    def call(self: Any) -> Any:
        try:
            return self.__dict__[key]
        except KeyError:
            value = self.__dict__[key] = method(self)
            return value

    setattr(cls, name, call)


_APPLIED = False


def apply() -> None:
    """Memoizes the type queries of value conversion (idempotent)."""
    global _APPLIED
    if _APPLIED:
        return
    _APPLIED = True
    _memo_property(t.ListType, "element")
    _memo_property(t.RecordType, "fields")
    _memo_property(t.VariantType, "cases")
    _memo_property(t.OptionType, "payload")
    _memo_property(t.ResultType, "ok")
    _memo_property(t.ResultType, "err")
    _memo_property(t.FuncType, "params")
    _memo_property(t.FuncType, "result")
    if hasattr(t.TupleType, "types"):
        _memo_property(t.TupleType, "types")
    if hasattr(t.EnumType, "names"):
        _memo_property(t.EnumType, "names")
    _memo_method(t.VariantLikeType, "_tagged")
    _memo_method(t.ListType, "_is_bytes")
