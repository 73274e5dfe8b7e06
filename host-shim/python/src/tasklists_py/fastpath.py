"""Memoized type information for wasmtime-py's component values.

wasmtime-py (51.0.0, pinned) asks the C API again for a type's cases,
fields or element type every time it converts a value, and converts a
list an element at a time: converting the rows of one query (then a
`list<list<value>>`; they now cross packed, `store_import.py`) asked for
the `value` variant's five cases once per cell, through several FFI
calls each, and that was most of a call's cost (profiled: 60% of a
claim). A type object never changes, so each of these answers is kept on the object that was asked:
the objects of one call's types are then asked once. A variant's value is
lowered from a table of its cases worked out once (the same choice of
case), bytes are copied into the C API once instead of twice, and each
host function's types are read once, not at every call into the host. Applied
once, at import; nothing else of wasmtime-py is changed."""

from __future__ import annotations

import ctypes
from typing import Any, Callable

from wasmtime import _ffi as ffi
from wasmtime.component import _linker
from wasmtime.component import _types as t
from wasmtime.component._enter import catch_exceptions


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


def _bytes_to_capi(data: bytes | bytearray) -> Any:
    """wasmtime-py's `bytes_to_capi` without its intermediate ctypes array:
    one copy, straight from the bytes."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("expected bytes or bytearray")
    vec = ffi.wasm_byte_vec_t()
    ffi.wasm_byte_vec_new_uninitialized(ctypes.byref(vec), len(data))
    if data:
        ctypes.memmove(vec.data, bytes(data), len(data))
    return vec


def _cases_table(self: Any) -> tuple[bool, dict[str, Any], list[tuple[str, Any, tuple[type, ...] | None]]]:
    """A variant-like type's cases, worked out once: whether values carry
    their tag, the cases by tag, and for untagged ones the Python classes
    that select each case (None: the case without a payload)."""
    table = self.__dict__.get("_tasklists_table")
    if table is None:
        cases = self._cases()
        by_tag = {name: ty for name, ty in cases}
        tests = []
        for name, ty in cases:
            if ty is None:
                tests.append((name, None, None))
            else:
                classes: set[type] = set()
                ty.add_classes(classes)
                tests.append((name, ty, tuple(classes)))
        table = self.__dict__["_tasklists_table"] = (self._tagged(), by_tag, tests)
    return table


def _lower(self: Any, store: Any, val: Any) -> tuple[str, Any]:
    """`VariantLikeType._lower` over the table: the same choice of case
    (the tag, else the first case whose classes the value is of), without
    asking every case's classes again for every value."""
    tagged, by_tag, tests = _cases_table(self)
    if tagged:
        if not isinstance(val, t.Variant):
            raise TypeError("expected Variant type")
        if val.tag not in by_tag:
            raise ValueError("value not valid for this variant")
        name, ty, payload = val.tag, by_tag[val.tag], val.payload
    else:
        for name, ty, classes in tests:
            if ty is None:
                if val is None:
                    break
            elif isinstance(val, classes):  # type: ignore[arg-type]
                break
        else:
            raise ValueError("value not valid for this variant")
        payload = val
    if ty is None:
        return (name, None)
    raw = ffi.wasmtime_component_val_t()
    ty.convert_to_c(store, payload, ctypes.pointer(raw))
    return (name, ffi.wasmtime_component_val_new(ctypes.byref(raw)))


#: The parameter and result types of each host function, by its index in
#: wasmtime-py's function slab: a linked function's type never changes, so
#: it is read once instead of at every call into the host.
_HOST_TYPES: dict[int, tuple[list[Any], Any]] = {}


@ffi.wasmtime_component_func_callback_t  # type: ignore[misc]
def _func_impl(idx, context, ty_raw, args, nargs, results, nresults):  # type: ignore[no-untyped-def]
    """wasmtime-py's `func_impl` with the function's types kept."""

    def run(store: Any) -> None:
        key = idx or 0
        types = _HOST_TYPES.get(key)
        if types is None:
            fty = t.FuncType._from_ptr(ty_raw, owner=store)
            types = _HOST_TYPES[key] = ([ty for _, ty in fty.params], fty.result)
        param_tys, result_ty = types
        assert len(param_tys) == nargs
        pyargs = [ty.convert_from_c(args[i]) for i, ty in enumerate(param_tys)]
        result = _linker.FUNCTIONS.get(key)(store, *pyargs)
        if result_ty is None:
            assert result is None
        else:
            result_ty.convert_to_c(store, result, results)

    return catch_exceptions(context, run)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _func_finalize(idx):  # type: ignore[no-untyped-def]
    """wasmtime-py's `func_finalize`, forgetting the types kept for the
    slab index it frees (the index may serve another function next)."""
    _HOST_TYPES.pop(idx or 0, None)
    if _linker.FUNCTIONS:
        _linker.FUNCTIONS.deallocate(idx or 0)
    return None


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
    t.VariantLikeType._lower = _lower  # type: ignore[method-assign]
    # Read by `add_func` when it links each function: set before any is.
    _linker.func_impl = _func_impl
    _linker.func_finalize = _func_finalize
    ffi.bytes_to_capi = _bytes_to_capi
