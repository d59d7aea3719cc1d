"""Guards for untrusted input: size, nesting and integer limits, and short descriptions of values
for error messages.

Game records (:mod:`durak.records`) and rules files (:mod:`durak.presets`) come from files and
network peers. Before their text is parsed its size is checked; while it is parsed, integers
longer than :data:`MAX_INT_DIGITS` digits and nesting deeper than :data:`MAX_DEPTH` levels are
refused, so that no :class:`RecursionError` or integer-conversion :class:`ValueError` escapes. Every
problem is reported through an ``error(where, reason)`` factory supplied by the caller (it makes a
:class:`~durak.records.RecordError` or a :class:`~durak.errors.RulesError`); ``where`` is a JSON
path such as ``"deal/seed"`` (``""`` for the whole text).
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import reprlib
import tomllib
from collections.abc import Callable, Iterable, Mapping
from os import PathLike
from typing import IO, Any, NoReturn

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "DuplicateKeyError",
    "ErrorFactory",
    "brief",
    "brief_name",
    "check_data",
    "check_size",
    "facts_from_json",
    "nearest",
    "parse_json",
    "parse_toml",
    "read_limited",
    "unique_object",
]

#: The deepest nesting of lists and tables (objects) read from a record or a rules file;
#: ``[]`` is one level, ``[[]]`` two.
MAX_DEPTH = 32

#: The most digits an integer read from a record or a rules file may have (Python's own default
#: limit for converting text to an integer).
MAX_INT_DIGITS = 4300

_INT_BOUND = 10**MAX_INT_DIGITS

#: ``error(where, reason)``: the exception to raise for a problem at the JSON path ``where``.
ErrorFactory = Callable[[str, str], Exception]


class Reason(str):
    """A reason these readers give, as its English text (so it is a ``str`` wherever one is
    taken) that also carries its message code and parameters: the error classes say it in the
    player's language (:func:`durak.messages.as_message` reads ``code`` and ``params``)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, english: str, code: str, **params: Any) -> Reason:
        reason = super().__new__(cls, english)
        reason.code = code
        reason.params = params
        return reason


def _toml_line(exc: Exception) -> tuple[str, int]:
    """tomllib's error without its ``(at line L, column C)`` tail, and the line (0 if none)."""
    text = str(exc)
    found = re.search(r"\s*\(at line (\d+), column \d+\)$", text)
    if found is None:
        return text, 0
    return text[: found.start()], int(found.group(1))


# --- short descriptions ------------------------------------------------------------------------


def _digits(value: int) -> int:
    """The number of decimal digits of ``value``, without converting it to text."""
    size = abs(value)
    if size < 10:
        return 1
    digits = math.floor(math.log10(size)) + 1
    if 10 ** (digits - 1) > size:  # correct a rounding of the logarithm
        digits -= 1
    elif 10**digits <= size:
        digits += 1
    return digits


class _Brief(reprlib.Repr):
    """:func:`reprlib.repr` that never fails: long integers are described, not converted."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = 48
        self.maxother = 48
        self.maxlong = 40
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdict = 6

    def repr_int(self, x: int, level: int) -> str:
        if not -(10**40) < x < 10**40:
            return f"<an integer of {_digits(x)} digits>"
        return repr(x)


_BRIEF = _Brief()


def brief(value: object) -> str:
    """A short ``repr`` of ``value`` for an error message: long strings and lists are cut, deep
    structures are elided and long integers are described by their number of digits, so it
    never raises (not even for a 100,000-deep list or a 5,000-digit integer).

    >>> print(brief("x" * 100))
    'xxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxx'
    >>> print(brief(10**5000), brief([[[[[1]]]]]))
    <an integer of 5001 digits> [[[[...]]]]
    """
    try:
        return _BRIEF.repr(value)
    except Exception:  # a repr that fails in a way reprlib does not catch
        return f"<a {type(value).__name__}>"


#: The longest name :func:`brief_name` shows as it is.
_PLAIN_NAME = 48


def brief_name(name: object) -> str:
    r"""A name from untrusted input (a setting, a field, an object's key) for an error message:
    as it is when it is short printable text without surrounding spaces, else quoted and escaped
    by :func:`brief` as preset names are, so that no control character, terminal escape,
    invisible format character or lone surrogate reaches the message.

    >>> print(brief_name("colour"), brief_name("\x1b[2J"), brief_name("\ud800"), brief_name(""))
    colour '\x1b[2J' '\ud800' ''
    """
    if (
        isinstance(name, str)
        and 0 < len(name) <= _PLAIN_NAME
        and name.isprintable()
        and name.strip() == name
    ):
        return name
    return brief(name)


#: The longest unknown name :func:`nearest` looks for a known name near.
_NEAR_NAME = 64


def nearest(name: object, known: Iterable[str]) -> str | None:
    """The known name nearest to an unknown ``name`` (a misspelt setting, preset or value:
    ``perevodnoi`` -> ``perevodnoy``), by :func:`difflib.get_close_matches` and ignoring case,
    or ``None`` when none is near or ``name`` is not short text.

    >>> nearest("perevodnoi", ["podkidnoy", "perevodnoy"]), nearest("x", ["players"])
    ('perevodnoy', None)
    """
    if not isinstance(name, str) or not 0 < len(name) <= _NEAR_NAME:
        return None
    names = list(known)
    by_folded = {n.casefold(): n for n in names}
    found = difflib.get_close_matches(name.strip().casefold(), list(by_folded), n=1)
    return by_folded[found[0]] if found else None


# --- size ----------------------------------------------------------------------------------------


def _size_text(size: int) -> str:
    return f"{size:,} bytes"


def _limit_text(limit: int) -> str:
    unit = "MiB" if limit >= 1024 * 1024 else "KiB"
    amount = limit / (1024 * 1024 if unit == "MiB" else 1024)
    return f"{limit:,} bytes ({amount:g} {unit})"


def check_size(text: str | bytes | bytearray, limit: int, what: str, error: ErrorFactory) -> None:
    """Refuse ``text`` longer than ``limit`` bytes (text is measured in UTF-8), before parsing.

    Raises:
        the ``error`` factory's exception, at ``""``.
    """
    if isinstance(text, str):
        size = len(text)
        if size <= limit < size * 4:  # only then can the UTF-8 length differ in the verdict
            size = len(text.encode("utf-8", "surrogatepass"))
    else:
        size = len(text)
    if size > limit:
        shown = _size_text(size) if size <= 4 * limit else f"more than {_size_text(4 * limit)}"
        raise error("", f"{what} is too big: {shown}; at most {_limit_text(limit)} are read")


def read_limited(
    file: str | PathLike[str] | IO[Any], limit: int, what: str, error: ErrorFactory
) -> str | bytes:
    """The contents of a file named by a path (as bytes) or of an open file (what its ``read``
    gives), refusing more than ``limit`` bytes: a file whose size is known is refused before
    anything is read, and never more than ``limit + 1`` bytes (characters) are read.

    Raises:
        the ``error`` factory's exception, at ``""``: the file cannot be opened or read, or it
            is too big.
        TypeError: ``file`` is neither a path nor an open file.
    """
    if isinstance(file, str | PathLike):
        name = str(file)
        try:
            with open(file, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                data: str | bytes = handle.read(limit + 1) if size <= limit else b""
        except OSError as exc:
            why = str(exc.strerror or exc)
            english = f"cannot read {name}: {why}"
            reason = Reason(english, "input.cannot-read", given=name, detail=why)
            raise error("", reason) from None
        except ValueError as exc:  # e.g. a NUL character in the path
            raise error("", f"cannot read {brief(name)}: {exc}") from None
        if size > limit:  # a regular file's size is known before it is read
            raise error(
                "",
                f"{name} is too big for {what}: {_size_text(size)}; "
                f"at most {_limit_text(limit)} are read",
            )
    else:
        read = getattr(file, "read", None)
        if not callable(read):
            raise TypeError(f"expected a path or an open file, not {type(file).__name__}")
        try:
            data = read(limit + 1)
        except OSError as exc:
            raise error("", f"cannot read the file: {exc.strerror or exc}") from None
        except ValueError as exc:  # e.g. a closed file
            raise error("", f"cannot read the file: {exc}") from None
        if not isinstance(data, str | bytes):
            raise TypeError(f"the file's read() gave {type(data).__name__}, not text or bytes")
    check_size(data, limit, what, error)
    return data


# --- structure -----------------------------------------------------------------------------------


class _LongInt:
    """What the JSON reader gives for an integer too long to convert; :func:`check_data`
    reports it with its path."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _json_int(text: str) -> int | _LongInt:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _LongInt(digits)
    try:
        return int(text)
    except ValueError:  # the interpreter's limit was set lower
        return _LongInt(digits)


class _Constant(ValueError):
    pass


def _json_constant(name: str) -> NoReturn:
    raise _Constant(f"{name} is not a JSON value")


class DuplicateKeyError(ValueError):
    """A JSON object names ``key`` twice (Python's ``json`` would keep the last value silently,
    where TOML refuses the text)."""

    def __init__(self, key: str) -> None:
        self.key = key
        shown = key if len(key) <= 60 else key[:57] + "..."
        super().__init__(f"duplicate key {json.dumps(shown, ensure_ascii=False)}")


def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The ``object_pairs_hook`` of :func:`json.loads` that refuses a key met twice in one
    object.

    Raises:
        DuplicateKeyError: naming the first key met again.
    """
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return data


def _path(parts: tuple[object, ...]) -> str:
    return "/".join(brief_name(p) if isinstance(p, str) else brief(p) for p in parts)


def _too_long(digits: int | None) -> str:
    size = f"{digits:,} digits" if digits is not None else f"more than {MAX_INT_DIGITS:,} digits"
    return f"an integer of {size} is too long (at most {MAX_INT_DIGITS:,} digits)"


def check_data(data: Any, error: ErrorFactory, what: str = "the data") -> None:
    """Refuse data nested deeper than :data:`MAX_DEPTH` levels or holding an integer of more than
    :data:`MAX_INT_DIGITS` digits (walking it without recursion; shared and cyclic references
    end at the depth limit).

    Raises:
        the ``error`` factory's exception, at the path of the first such value.
    """
    deepest: dict[int, int] = {}
    stack: list[tuple[Any, int, tuple[object, ...]]] = []

    def visit(value: Any, depth: int, path: tuple[object, ...]) -> None:
        if isinstance(value, int):
            if not -_INT_BOUND < value < _INT_BOUND:
                raise error(_path(path), _too_long(None))
        elif type(value) is _LongInt:
            raise error(_path(path), _too_long(value.digits))
        elif isinstance(value, Mapping | list | tuple | set | frozenset):
            stack.append((value, depth, path))

    visit(data, 0, ())
    while stack:
        value, depth, path = stack.pop()
        depth += 1
        if depth > MAX_DEPTH:
            raise error(_path(path), f"{what} is nested more than {MAX_DEPTH} levels deep")
        if deepest.get(id(value), 0) >= depth:
            continue  # already walked from here at this depth or deeper
        deepest[id(value)] = depth
        if isinstance(value, Mapping):
            for key, child in value.items():
                if type(key) is int and not -_INT_BOUND < key < _INT_BOUND:
                    raise error(_path(path), _too_long(None))
                kind = type(child)
                if kind not in _SCALARS and (
                    kind is not int or not -_INT_BOUND < child < _INT_BOUND
                ):
                    visit(child, depth, (*path, key))
        else:
            for index, child in enumerate(value):
                kind = type(child)
                if kind not in _SCALARS and (
                    kind is not int or not -_INT_BOUND < child < _INT_BOUND
                ):
                    visit(child, depth, (*path, index))


#: Types :func:`check_data` need not look into (small integers are checked by value).
_SCALARS = frozenset({str, float, bool, type(None)})


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_TOML_TOKENS = re.compile(
    r'#[^\n]*|"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\[\]{}]',
    re.DOTALL,
)


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {column}"


def _too_deep(text: str, tokens: re.Pattern[str]) -> str:
    """The reason for text nested too deeply for the parser, with the position where it passes
    :data:`MAX_DEPTH`."""
    depth = 0
    for match in tokens.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} levels deep at {_where(text, match.start())}"
        elif token in "]}":
            depth -= 1
    return f"nested more than {MAX_DEPTH} levels deep"


def parse_json(text: str | bytes | bytearray, error: ErrorFactory, what: str) -> Any:
    """Parse JSON text (the caller has checked its size), then :func:`check_data` it.

    Raises:
        the ``error`` factory's exception: the text is not JSON (``""``), names a key twice in
            one object (``""``, naming the key: TOML refuses that too), is nested too deeply
            (``""``, with the position) or holds too long an integer (its path).
        TypeError: ``text`` is not text or bytes.
    """
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"{what} is JSON text or bytes, not {type(text).__name__}")
    try:
        data = json.loads(
            text,
            parse_int=_json_int,
            parse_constant=_json_constant,
            object_pairs_hook=unique_object,
        )
    except DuplicateKeyError as exc:
        raise error("", f"{what} names a key twice: {exc}") from None
    except RecursionError:
        decoded = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
        raise error("", f"{what} is {_too_deep(decoded, _JSON_TOKENS)}") from None
    except (UnicodeDecodeError, ValueError) as exc:  # json.JSONDecodeError, NaN or Infinity
        reason = Reason(f"not valid JSON: {exc}", "input.not-json", detail=str(exc))
        raise error("", reason) from None
    check_data(data, error, what)
    return data


_LONG_DIGITS = re.compile(rf"[0-9_]{{{MAX_INT_DIGITS + 1},}}")
_KEY = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=")


def parse_toml(text: str, error: ErrorFactory, what: str) -> dict[str, Any]:
    """Parse TOML text (the caller has checked its size), then :func:`check_data` it.

    Raises:
        the ``error`` factory's exception: the text is not TOML (``""``), is nested too deeply
            (``""``, with the position) or holds too long an integer (the key on its line, or
            ``""``, with the position).
        TypeError: ``text`` is not text.
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} is TOML text, not {type(text).__name__}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        detail, line = _toml_line(exc)
        english = f"not valid TOML: {exc}"
        if line:
            reason = Reason(english, "input.not-toml-line", detail=detail, line=line)
        else:
            reason = Reason(english, "input.not-toml", detail=detail)
        raise error("", reason) from None
    except RecursionError:
        raise error("", f"{what} is {_too_deep(text, _TOML_TOKENS)}") from None
    except ValueError:  # an integer too long for int()
        found = _LONG_DIGITS.search(text)
        if found is None:  # pragma: no cover - tomllib raises ValueError only there
            raise error("", f"not valid TOML: {_too_long(None)}") from None
        start = text.rfind("\n", 0, found.start()) + 1
        key = _KEY.match(text, start)
        digits = len(found.group().replace("_", ""))
        raise error(
            key.group(1) if key else "", f"{_too_long(digits)} at {_where(text, found.start())}"
        ) from None
    check_data(data, error, what)
    return data


def facts_from_json(
    data: Any, error: ErrorFactory, field: str = "extra"
) -> tuple[tuple[str, Any], ...]:
    """Rule modules' facts from JSON (an object of names to values, or pairs): values made of
    numbers, text, booleans, ``null`` and lists (read back as tuples). Numbers are finite:
    ``NaN`` and ``Infinity`` (which Python's ``json`` reads by default) are refused.

    Every problem is raised as ``error(where, reason)``, ``where`` the JSON path from
    ``field``. :func:`durak.records.extra_from_json` reads a record's facts with it, and
    :func:`durak.new_position` the facts it is given.
    """

    def freeze(value: Any, where: str) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            raise error(where, f"must be a finite number, not {brief(value)}")
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, list | tuple):
            return tuple(freeze(v, f"{where}/{i}") for i, v in enumerate(value))
        raise error(where, f"must be a number, text, boolean, null or list: {brief(value)}")

    if isinstance(data, Mapping):
        items = list(data.items())
    elif isinstance(data, list | tuple):
        items = []
        for i, pair in enumerate(data):
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise error(
                    f"{field}/{i}", f"must be a pair [name, value], not {brief(pair)}"
                )
            items.append((pair[0], pair[1]))
    else:
        raise error(field, f"must be an object of names to values, not {brief(data)}")
    out = {}
    for name, value in items:
        if not isinstance(name, str):
            raise error(field, f"a name must be text, not {brief(name)}")
        if name in out:
            raise error(field, f"{brief_name(name)} is given twice")
        out[name] = freeze(value, f"{field}/{brief_name(name)}")
    return tuple(sorted(out.items()))
