"""Options set by environment variables: ``--search-deadline`` is ``BONANZA_SEARCH_DEADLINE``.

:func:`apply` makes each variable set the default of its option, so an option
given on the command line wins. Values are only read then; they are checked
when the command runs (:func:`checked`), so a bad ``BONANZA_PORT`` does not
stop ``bonanza deal``, and its error names the variable, not the option.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from bonanza.core.errors import BonanzaError

PREFIX = "BONANZA_"
TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})
SWITCHES = (argparse.BooleanOptionalAction, argparse._StoreTrueAction)
"""Options that take no value: their variable is a yes or a no."""


class FromEnvironment(str):
    """An option's value as an environment variable gave it (not yet checked)."""

    __slots__ = ("choices", "flag", "switch", "variable")

    variable: str
    flag: str
    switch: bool
    choices: tuple[str, ...] | None


def variable_for(flag: str) -> str:
    """``BONANZA_SEARCH_DEADLINE`` for ``--search-deadline``."""
    return PREFIX + flag.removeprefix("--").replace("-", "_").upper()


def long_flag(action: argparse.Action) -> str | None:
    """The option's first long name (``--proxy-headers``, not ``--no-proxy-headers``)."""
    return next((flag for flag in action.option_strings if flag.startswith("--")), None)


def variables(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each option's variable, by its long name (``--help`` and ``--version`` have none)."""
    found = {}
    for action in parser._actions:  # argparse has no public list
        flag = long_flag(action)
        if flag is not None and action.dest != argparse.SUPPRESS and flag != "--help":
            found[flag] = variable_for(flag)
    return found


def apply(parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None) -> None:
    """Make each option's variable in ``environ`` (default: the process's) its default,
    and name the variable in the option's help. An empty variable counts as unset
    (``BONANZA_DB=`` must not mean a database named nothing)."""
    environ = os.environ if environ is None else environ
    names = variables(parser)
    for action in parser._actions:
        flag = long_flag(action)
        if flag not in names:
            continue
        assert flag is not None
        variable = names[flag]
        if action.help is not None and action.help != argparse.SUPPRESS:
            action.help = f"{action.help} [env: {variable}]"
        if not environ.get(variable, "").strip():  # unset, or set to nothing: no value
            continue
        value = FromEnvironment(environ[variable])
        value.variable = variable
        value.flag = flag
        value.switch = isinstance(action, SWITCHES)
        value.choices = tuple(str(choice) for choice in action.choices) if action.choices else None
        parser.set_defaults(**{action.dest: value})


def switch_from(value: FromEnvironment) -> bool:
    """A yes or no variable: 1, true, yes, on or 0, false, no, off (any case)."""
    text = value.strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise BonanzaError(f"{value.variable} must be 1 or 0 (true or false), not {str(value)!r}")


def resolve(args: argparse.Namespace) -> None:
    """Turn the values variables gave into what the options would have given:
    a switch's into a bool, a choice's checked, the others plain strings."""
    for dest, value in vars(args).items():
        if not isinstance(value, FromEnvironment):
            continue
        if value.switch:
            setattr(args, dest, switch_from(value))
            continue
        if value.choices is not None and value not in value.choices:
            raise BonanzaError(
                f"{value.variable} must be {' or '.join(value.choices)}, not {str(value)!r}"
            )
        setattr(args, dest, _Checked(value))


class _Checked(str):
    """A variable's value once resolved, still knowing its variable for error messages."""

    __slots__ = ("flag", "variable")

    def __new__(cls, value: FromEnvironment) -> _Checked:
        checked = super().__new__(cls, value)
        checked.variable = value.variable
        checked.flag = value.flag
        return checked

    variable: str
    flag: str


@contextmanager
def checked(args: argparse.Namespace) -> Iterator[None]:
    """Resolve ``args`` (:func:`resolve`), then, inside the block, name the variable in
    place of its option in a :class:`BonanzaError` that begins with the option's name
    (``--port must be ...`` becomes ``BONANZA_PORT must be ...``) when the variable
    gave the value."""
    resolve(args)
    try:
        yield
    except BonanzaError as error:
        message = str(error)
        for value in vars(args).values():
            if isinstance(value, _Checked) and message.startswith(value.flag + " "):
                raise BonanzaError(value.variable + message[len(value.flag) :]) from None
        raise
