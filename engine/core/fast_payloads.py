"""A fast first check of event payloads: msgspec structs derived from a ruleset's pydantic payload
models, tried before the model and trusted only when they accept.

Every payload a log holds is validated once per replay, and pydantic's validator costs 1-3 µs a
payload on these shapes; `msgspec.convert` into a struct of the same fields and constraints costs
a third to a half of that. The pydantic models stay what a payload means and how a bad one is
phrased (LOG-PAYLOAD quotes pydantic's errors): the struct only takes the payloads it is sure of.

- A struct is derived from a model field by field (name, alias, default, annotation, the
  constraints pydantic records as metadata: ge/gt/le/lt, min/max length), and only when every
  field is of a kind both libraries read alike from parsed JSON: str, int, bool, None, Literal,
  list, dict with str keys, unions of these, nested payload models. A model with anything else
  (floats, field validators, a model-instance default, properties or methods the engine might
  call) has no struct: its payloads always go to pydantic.
- msgspec converts strictly (no "5" for 5, no 5.0 for 5, no true for 1) and refuses unknown keys,
  so whatever a struct accepts its model accepts with the same values; the model's "after"
  validators (exactly-one-of rules) run on the struct too. Anything the struct refuses, or any
  exception at all on the fast path, sends the payload to pydantic, which accepts it (lax
  coercions, a field named by its Python name) or gives today's error.

The struct has the model's field names and nested structs for nested models, so the engine reads
it exactly as it reads the model (`p.units.footman`, `p.from_`).
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, Callable, Literal, Union

try:  # a dependency; without it every payload goes to pydantic, as before
    import msgspec
except ImportError:  # pragma: no cover
    msgspec = None

import annotated_types
from pydantic import BaseModel
from pydantic_core import PydanticUndefined


class _Unsupported(Exception):
    """A model or annotation this module does not translate (its payloads go to pydantic)."""


_CONSTRAINTS = {annotated_types.Ge: ("ge", "ge"), annotated_types.Gt: ("gt", "gt"),
                annotated_types.Le: ("le", "le"), annotated_types.Lt: ("lt", "lt"),
                annotated_types.MinLen: ("min_length", "min_length"),
                annotated_types.MaxLen: ("max_length", "max_length")}
_NUMERIC = frozenset({"ge", "gt", "le", "lt"})


def _meta(metadata: list) -> dict[str, Any]:
    """msgspec.Meta keyword arguments for pydantic's constraint metadata."""
    out: dict[str, Any] = {}
    for item in metadata:
        spec = _CONSTRAINTS.get(type(item))
        if spec is None:
            raise _Unsupported(f"constraint {item!r}")
        attr, key = spec
        out[key] = getattr(item, attr)
    return out


def _constrained(tp: Any, meta: dict[str, Any]) -> Any:
    """`tp` with constraints `meta`; on a union, on each member they apply to (as pydantic does
    for an optional field)."""
    if not meta:
        return tp
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        members = [m if m is type(None) else _constrained(m, meta) for m in typing.get_args(tp)]
        return Union[tuple(members)]
    numeric = _NUMERIC & meta.keys()
    if numeric and tp is not int:
        raise _Unsupported(f"numeric constraint on {tp!r}")
    if meta.keys() - _NUMERIC and not (tp is str or typing.get_origin(tp) in (list, dict)):
        raise _Unsupported(f"length constraint on {tp!r}")
    return typing.Annotated[tp, msgspec.Meta(**meta)]


def _translate(tp: Any, built: dict[type, Any]) -> Any:
    """The msgspec type for a pydantic field annotation."""
    if tp in (str, int, bool, type(None)):
        return tp
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _struct(tp, built)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _constrained(_translate(args[0], built), _meta(list(args[1:])))
    if origin in (Union, types.UnionType):
        return Union[tuple(_translate(a, built) for a in args)]
    if origin is Literal and all(type(a) is str for a in args):
        return tp
    if origin is list and len(args) == 1:
        return list[_translate(args[0], built)]
    if origin is dict and len(args) == 2 and args[0] is str:
        return dict[str, _translate(args[1], built)]
    raise _Unsupported(f"annotation {tp!r}")


def _after_validators(model: type[BaseModel]) -> list[Callable[[Any], Any]]:
    decorators = model.__pydantic_decorators__
    if (decorators.field_validators or decorators.validators or decorators.root_validators
            or decorators.computed_fields):
        raise _Unsupported(f"{model.__name__} has field validators or computed fields")
    out = []
    for dec in decorators.model_validators.values():
        if dec.info.mode != "after":
            raise _Unsupported(f"{model.__name__} has a {dec.info.mode} model validator")
        out.append(dec.func)
    return out


def _own_behaviour(model: type[BaseModel]) -> None:
    """Refuse a model whose class (or a base below BaseModel) defines public properties or
    methods: the engine might call them, and the struct would not have them."""
    for klass in model.__mro__:
        if klass is BaseModel or not issubclass(klass, BaseModel):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name.startswith("model_"):
                continue
            if isinstance(value, (property, staticmethod, classmethod)) or callable(value):
                raise _Unsupported(f"{model.__name__}.{name}")


def _struct(model: type[BaseModel], built: dict[type, Any]) -> Any:
    """The struct for `model` (built once per model)."""
    if model in built:
        if built[model] is None:
            raise _Unsupported(f"{model.__name__} refers to itself")
        return built[model]
    built[model] = None
    _own_behaviour(model)
    validators = _after_validators(model)
    fields: list[tuple] = []
    for name, info in model.model_fields.items():
        tp = _constrained(_translate(info.annotation, built), _meta(list(info.metadata)))
        wire = info.alias or name
        if info.is_required():
            default, factory = msgspec.NODEFAULT, msgspec.NODEFAULT
        elif info.default_factory is not None:
            if info.default_factory not in (list, dict):
                raise _Unsupported(f"{model.__name__}.{name} default factory")
            default, factory = msgspec.NODEFAULT, info.default_factory
        else:
            default, factory = info.default, msgspec.NODEFAULT
            if default is PydanticUndefined or type(default) not in (str, int, bool, type(None)):
                raise _Unsupported(f"{model.__name__}.{name} default {default!r}")
        fields.append((name, tp, msgspec.field(default=default, default_factory=factory,
                                               name=None if wire == name else wire)))
    struct = msgspec.defstruct(model.__name__, fields, kw_only=True, frozen=True,
                               forbid_unknown_fields=True, module=__name__)
    struct.__doc__ = f"The fast path's form of {model.__module__}.{model.__qualname__}."
    if validators:
        struct.__after_validators__ = tuple(validators)
    built[model] = struct
    return struct


def _converter(struct: Any) -> Callable[[Any], Any]:
    convert, validators = msgspec.convert, getattr(struct, "__after_validators__", ())
    if not validators:      # msgspec's own call, no Python frame between (one per event)
        return functools.partial(convert, type=struct)

    def fast(payload: Any) -> Any:
        value = convert(payload, struct)
        for check in validators:
            check(value)
        return value

    return fast


_TABLES: dict[int, tuple[Any, dict[str, Callable[[Any], Any]]]] = {}


def fast_validators(models: typing.Mapping[str, type]) -> dict[str, Callable[[Any], Any]]:
    """{event type: a function from a parsed payload to its struct} for the models that translate.

    The function raises (anything) when the payload is not for the fast path; the caller then
    validates it with the model. Built once per table of models."""
    key = id(models)
    cached = _TABLES.get(key)
    if cached is not None and cached[0] is models:
        return cached[1]
    table: dict[str, Callable[[Any], Any]] = {}
    if msgspec is not None:
        built: dict[type, Any] = {}
        for event_type, model in models.items():
            try:
                table[event_type] = _converter(_struct(model, built))
            except (_Unsupported, TypeError, ValueError):
                continue
    _TABLES[key] = (models, table)
    return table


def validate_payload(models: typing.Mapping[str, type], event_type: str, payload: Any) -> Any:
    """The payload of an event of `event_type` validated: the fast struct when it accepts, else
    the pydantic model's (raising pydantic's ValidationError as before)."""
    fast = fast_validators(models).get(event_type)
    if fast is not None:
        try:
            return fast(payload)
        except Exception:
            pass
    return models[event_type].__pydantic_validator__.validate_python(payload)
