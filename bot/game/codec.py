"""One codec between the game's values and JSON, read off the types themselves.

Every stored or sent shape (actions, events, ``HandResult``, ``TrickRecord``,
the ``Match`` state) is a frozen dataclass, a ``NamedTuple`` or a table of
attribute types; ``encode`` and ``decode`` walk those type hints, so a new field
is serialised without writing code for it. The JSON forms:

* a ``Card`` is its notation (``"TH"``) and a sequence of cards one notation
  string (``"TH TH BJ"``), as players type them;
* a dataclass or ``NamedTuple`` is an object of its fields (``decode`` also reads
  the list of its fields in order, the form version-1 snapshots used for bids
  and trumps, and gives missing fields their defaults);
* tuples and lists are lists; an ``Enum`` is its value; ints, strings, bools
  and None stay themselves;
* actions and events are tagged with their ``kind`` (``to_tagged``).

Public so other layers (the store's hand records) can use the same forms::

    >>> from bot.game import codec, TrickRecord
    >>> from bot.rules import parse_cards
    >>> t = TrickRecord(0, ((0, tuple(parse_cards("AH"))),), 0, 0)
    >>> codec.encode(t)
    {'leader': 0, 'plays': [[0, 'AH']], 'winner': 0, 'points': 0, 'attempted': None}
    >>> codec.decode(TrickRecord, codec.encode(t)) == t
    True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, Literal, TypeVar

from bot.rules import Card, format_cards, parse_cards

from .actions import Action, Bury, Deal, Declare, EndBidding, NextHand, Pass, Play
from .events import EVENT_TYPES, Event

T = TypeVar("T")
_UNIONS = (typing.Union, types.UnionType)
_fields_cache: dict[type, tuple[tuple[str, Any], ...]] = {}


class _NamedTupleClass(typing.Protocol):
    _fields: tuple[str, ...]


def is_record(hint: Any) -> bool:
    """Whether ``hint`` is a class the codec reads field by field."""
    return isinstance(hint, type) and (
        dataclasses.is_dataclass(hint) or (issubclass(hint, tuple) and hasattr(hint, "_fields"))
    )


def fields_of(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, type) of a record's fields, in order (class variables excluded)."""
    found = _fields_cache.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        if dataclasses.is_dataclass(cls):
            names: Iterable[str] = (f.name for f in dataclasses.fields(cls))
        else:
            names = typing.cast(_NamedTupleClass, cls)._fields  # ``is_record`` checked it
        found = _fields_cache[cls] = tuple((name, hints[name]) for name in names)
    return found


def _is_cards(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    return origin in (tuple, list) and typing.get_args(hint)[0] is Card


def encode(value: Any, hint: Any = None) -> Any:
    """JSON-ready data for ``value`` of type ``hint`` (default: the value's class)."""
    if value is None:
        return None
    if hint is None:
        hint = type(value)
    if hint is Card:
        return str(value)
    origin = typing.get_origin(hint)
    if origin in (tuple, list):
        args = typing.get_args(hint)
        if args[0] is Card:
            return format_cards(value)
        if origin is list or args[-1] is Ellipsis:
            return [encode(item, args[0]) for item in value]
        return [encode(item, arg) for item, arg in zip(value, args, strict=True)]
    if origin in _UNIONS:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return encode(value, options[0] if len(options) == 1 else type(value))
    if origin is Literal:
        return value
    if isinstance(hint, type):
        if issubclass(hint, Enum):
            return value.value
        if is_record(hint):
            return {name: encode(getattr(value, name), h) for name, h in fields_of(hint)}
    return value


def decode(hint: Any, data: Any) -> Any:
    """The value of type ``hint`` that ``encode`` turned into ``data``.

    Raises ``ValueError`` (or ``TypeError``/``KeyError`` for malformed data) when
    ``data`` does not fit; unknown fields of a record are refused.
    """
    if data is None:
        return None
    if hint is Card:
        (card,) = parse_cards(data)
        return card
    origin = typing.get_origin(hint)
    if origin in (tuple, list):
        args = typing.get_args(hint)
        if args[0] is Card:
            cards = parse_cards(data)
            return cards if origin is list else tuple(cards)
        if origin is list:
            return [decode(args[0], item) for item in data]
        if args[-1] is Ellipsis:
            return tuple(decode(args[0], item) for item in data)
        return tuple(decode(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in _UNIONS:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"decode needs one concrete type, not {hint!r}")
        return decode(options[0], data)
    if isinstance(hint, type):
        if issubclass(hint, Enum):
            return hint(data)
        if is_record(hint):
            fields = fields_of(hint)
            if isinstance(data, list):
                return hint(*(decode(h, item) for (_, h), item in zip(fields, data, strict=False)))
            unknown = set(data) - {name for name, _ in fields} - {"kind"}
            if unknown:
                raise ValueError(f"unknown {hint.__name__} fields: {', '.join(sorted(unknown))}")
            return hint(**{name: decode(h, data[name]) for name, h in fields if name in data})
    return data


def encode_attrs(obj: object, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Encode the attributes ``spec`` names (attribute -> type) of a mutable object."""
    return {name: encode(getattr(obj, name), hint) for name, hint in spec.items()}


def decode_attrs(spec: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The attribute values ``encode_attrs`` stored (all of ``spec`` must be present)."""
    return {name: decode(hint, data[name]) for name, hint in spec.items()}


def to_tagged(value: Any) -> dict[str, Any]:
    """A record with its ``kind`` (an action or an event) as one JSON object."""
    return {"kind": value.kind, **encode(value)}


def from_tagged(kinds: Mapping[str, type[T]], data: Mapping[str, Any]) -> T:
    """The record ``to_tagged`` wrote; ``kinds`` maps each ``kind`` to its class."""
    kind = data.get("kind")
    cls = kinds.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown kind {kind!r}")
    value: T = decode(cls, data)
    return value


ACTION_KINDS: dict[str, type[Action]] = {
    cls.kind: cls for cls in (Deal, EndBidding, Declare, Bury, Play, Pass, NextHand)
}
EVENT_KINDS: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_TYPES}


def action_to_dict(action: Action, *, auto: bool = False) -> dict[str, Any]:
    """An action as stored in the action log: ``{"kind": "play", "cards": "AH AH"}``.

    ``auto``: the computer took it for a person (their turn timer ran out, 托管), kept
    as ``"auto": true`` so a review judges only the person's own decisions. Logs
    written before it have no such key: every action reads as the person's own.
    """
    data = to_tagged(action)
    if auto:
        data["auto"] = True
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    return from_tagged(ACTION_KINDS, {k: v for k, v in data.items() if k != "auto"})


def is_auto(data: Mapping[str, Any]) -> bool:
    """Whether a logged action was taken by the computer for its seat (``action_to_dict``)."""
    return data.get("auto") is True


def event_to_dict(event: Event) -> dict[str, Any]:
    return to_tagged(event)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    return from_tagged(EVENT_KINDS, data)
