"""Compile-time hooks, each written once: the plain-Python form and the numba ``@overload``.

A hook is a function the shared kernels call whose implementation depends on the *types*
of its arguments: the game of the rules' kernel view (:mod:`.dispatch`: a classic run never
compiles zone) or whether a seat searches (:mod:`.search`: a table of scripted policies
never compiles the search). numba resolves such a call at compile time through an
``@overload(hook, inline="always")``, and the same hook must also run as plain Python
(``NUMBA_DISABLE_JIT=1``, the coverage pass). :func:`hook` makes both forms from one
description:

* ``params``: the parameter list, as written in a ``def``;
* ``choose(classes) -> (body, names)``: given the Python class of each argument by
  parameter name (a rules view's namedtuple class, :data:`.search.Scratch`, ``NoneType``;
  numba types are turned into these by :func:`class_of`), the body of the implementation
  (statements, one per line, ending in a ``return``) and the names it uses (functions and
  constants, bound when the hook is resolved).

The implementation ``def impl(<params>): <body>`` is built once per
combination of argument classes; numba inlines it where the hook is called, the plain form
calls it. Both forms are therefore the same code: what was two hand-written bodies per hook
(21 pairs before this module) is one ``choose``.

Why the hooks resolve lazily (``choose`` imports the game's module when called, not at
import time): a search plays its game's deals and the deal asks the search, so the modules
import each other -- the engines' one kind of import circle (docs/ENGINE.md) -- and the
circle is closed only when a kernel is compiled (or, in plain Python, first called), after
every module has been imported.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from numba.core import types
from numba.extending import overload

Choose = Callable[[dict[str, type]], tuple[str, dict]]


def class_of(t) -> type:
    """The Python class of a value of numba type ``t`` (a Python class is returned as it is):
    ``NoneType`` for numba's none, a named tuple's own class for its numba type."""
    if isinstance(t, types.NoneType | types.Omitted):
        return type(None)
    if isinstance(t, types.BaseNamedTuple):
        return t.instance_class
    return t


def _names(params: str) -> list[str]:
    return [p.strip() for p in params.split(",") if p.strip()]


def _define(source: str, env: dict, name: str):
    namespace: dict = {}
    exec(compile(source, f"<hook {name}>", "exec"), env, namespace)  # noqa: S102
    return namespace[name]


def hook(name: str, params: str, choose: Choose, doc: str, module: str, *, inline: bool = True):
    """The hook ``name(<params>)``: a plain function (``module``'s attribute, docstring ``doc``)
    with its numba overload registered (``inline="always"`` unless ``inline`` is False).
    ``choose`` as in the module docstring."""
    names = _names(params)
    built: dict[tuple, Callable] = {}

    def implementation(classes: tuple) -> Callable:
        impl = built.get(classes)
        if impl is None:
            body, env = choose(dict(zip(names, classes, strict=True)))
            impl = _define(f"def impl({params}):\n{textwrap.indent(body, '    ')}\n", dict(env), "impl")
            built[classes] = impl
        return impl

    call = ", ".join(names)
    env = {"_implementation": implementation, "_class_of": class_of}
    plain = _define(f"def {name}({params}):\n    return _implementation(({''.join(f'type({n}), ' for n in names)}))({call})\n",
                    env, name)  # fmt: skip
    typing = _define(f"def {name}({params}):\n    return _implementation(({''.join(f'_class_of({n}), ' for n in names)}))\n",
                     env, name)  # fmt: skip
    plain.__doc__ = textwrap.dedent(doc).strip()
    plain.__module__ = module
    plain.__qualname__ = name
    overload(plain, inline="always" if inline else "never")(typing)
    return plain
