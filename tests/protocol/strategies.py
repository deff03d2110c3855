"""Hypothesis strategies for every message, derived from the same field specs."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from dominion.protocol import CLIENT_MESSAGES, SERVER_MESSAGES
from dominion.protocol.spec import (
    Bool,
    Choice,
    Int,
    ListOf,
    Nullable,
    Payload,
    Spec,
    Str,
    Struct,
    fields_of,
)

TEXT = st.characters(codec="utf-8")

leaves: st.SearchStrategy[Any] = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
    | st.text(TEXT, max_size=10) | st.floats(allow_nan=False)
)
values: st.SearchStrategy[Any] = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(TEXT, max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""Any msgpack value without bin or ext, nested a little."""


def for_spec(spec: Spec) -> st.SearchStrategy[Any]:
    if isinstance(spec, Nullable):  # and Optional
        return st.none() | for_spec(spec.inner)
    if isinstance(spec, Int):
        return st.integers(spec.min, spec.max)
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Choice):
        return st.sampled_from(list(spec.values))
    if isinstance(spec, Str):
        return st.text(TEXT, min_size=spec.min_len, max_size=min(spec.max_len, 24))
    if isinstance(spec, ListOf):
        return st.lists(for_spec(spec.item), min_size=spec.min_len,
                        max_size=min(spec.max_len, 6)).map(tuple)
    if isinstance(spec, Payload):
        required = st.fixed_dictionaries(dict.fromkeys(spec.required, values))
        extra = st.dictionaries(st.text(TEXT, max_size=8), values, max_size=3)
        return st.tuples(extra, required).map(lambda pair: {**pair[0], **pair[1]})
    if isinstance(spec, Struct):
        return instances(spec.cls)
    raise TypeError(spec)


def instances(cls: type[Any]) -> st.SearchStrategy[Any]:
    return st.builds(cls, **{f.attr: for_spec(f.spec) for f in fields_of(cls)})


client_messages = st.one_of([instances(cls) for cls in CLIENT_MESSAGES.values()])
server_messages = st.one_of([instances(cls) for cls in SERVER_MESSAGES.values()])
