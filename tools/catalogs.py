"""Keep the message catalogs of src/durak/locale up to date with Babel (a development tool: the
package reads the compiled .mo files with the standard library's gettext).

    python tools/catalogs.py extract   # the sources -> durak.pot -> every language's .po
    python tools/catalogs.py compile   # every .po -> its .mo (commit both)

Extraction reads the Python sources (gettext, ngettext, pgettext, npgettext, and the markers
_m, _mp of durak.messages, _c of durak.i18n, n_ of the terminal game), the web front-end's
JavaScript (t, tn) and its page (the texts marked data-i18n: extract_html).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools.catalogs:extract_html, named in babel.cfg
LOCALE = ROOT / "src" / "durak" / "locale"
POT = LOCALE / "durak.pot"
LANGUAGES = ("en", "de", "pl", "ru")
KEYWORDS = ["_m:1c,2", "_mp:1c,2,3", "_c:1c,2", "n_:1,2", "t:1", "tn:1,2"]


_HTML_TEXT = re.compile(r"<(\w+)[^>]*\bdata-i18n(-html)?(?=[\s>])[^>]*>(.*?)</\1>", re.S)
_HTML_LABEL = re.compile(r"<[^>]*\baria-label=\"([^\"]+)\"[^>]*\bdata-i18n-label\b")


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for the web page: the text of elements marked ``data-i18n``
    (whitespace collapsed, as the page reads it), the inner HTML of those marked
    ``data-i18n-html``, and the ``aria-label`` of those marked ``data-i18n-label``."""
    text = fileobj.read().decode("utf-8")
    for found in _HTML_TEXT.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        yield line, "gettext", " ".join(found.group(3).split()), []
    for found in _HTML_LABEL.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        yield line, "gettext", found.group(1), []


def _babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    """The sources to the template, then the template merged into each language's catalog."""
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    _babel(
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        *keywords,
        "--no-location",
        "--sort-output",
        "--project=durak",
        "--copyright-holder=the durak authors",
        "-o",
        str(POT),
        str(ROOT / "src" / "durak"),
    )
    for lang in LANGUAGES:
        po = LOCALE / lang / "LC_MESSAGES" / "durak.po"
        if po.exists():
            _babel(
                "update",
                "-i",
                str(POT),
                "-o",
                str(po),
                "-l",
                lang,
                "--no-fuzzy-matching",
                "--ignore-obsolete",
            )
        else:
            _babel("init", "-i", str(POT), "-o", str(po), "-l", lang)


def compile_all() -> None:
    """Each language's .po to its .mo."""
    for lang in LANGUAGES:
        po = LOCALE / lang / "LC_MESSAGES" / "durak.po"
        _babel("compile", "-i", str(po), "-o", str(po.with_suffix(".mo")), "-l", lang, "-f")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "extract":
        extract()
    elif command == "compile":
        compile_all()
    else:
        sys.exit(__doc__)
