"""The documentation's translated pages (mkdocs-static-i18n, page.de.md ...): the home,
getting-started, rules and front-ends pages exist in German, Polish and Russian, and every rule
id the English rule book anchors has an anchor in each translated rules page, so that the
English pages the other languages fall back to link into them without a broken anchor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
TRANSLATED = ("de", "pl", "ru")
PAGES = ("index", "getting-started", "rules", "frontends")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translated_pages_exist_and_differ_from_english(lang: str) -> None:
    for page in PAGES:
        english = _prose((DOCS / f"{page}.md").read_text("utf-8"))
        translated = (DOCS / f"{page}.{lang}.md").read_text("utf-8")
        assert translated.startswith("# "), (lang, page)
        assert not _prose(translated) & english, (lang, page)  # no sentence left in English


def _prose(markdown: str) -> set[str]:
    """The page's lines of text: not code, table rows (a setting's row may hold only code and
    links), headings (a rule's name may be the same word in two languages: "R10.1 Teams",
    "R15.4 Pogony") or blank lines."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return {
        line
        for line in text.splitlines()
        if len(line.split()) > 2 and not line.startswith(("|", "#"))
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_rule_id_has_an_anchor_in_the_translated_rules_page(lang: str) -> None:
    english = (DOCS / "rules.md").read_text("utf-8")
    ids = set(re.findall(r"\{ #(R\d+(?:\.\d+)?) \}", english))
    page = (DOCS / f"rules.{lang}.md").read_text("utf-8")
    anchors = set(re.findall(r"\{ #(R[\d.]+) \}", page)) | set(
        re.findall(r'<a id="(R[\d.]+)">', page)
    )
    assert ids and not ids - anchors, sorted(ids - anchors)


def _commands(markdown: str) -> set[str]:
    """The lines of the page's shell blocks."""
    blocks = re.findall(r"```sh\n(.*?)```", markdown, flags=re.S)
    return {line for block in blocks for line in block.splitlines() if line.strip()}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translated_pages_give_the_english_page_s_shell_commands(lang: str) -> None:
    """A command copied from a translated page does what the English one does (the terminal
    game needs the 'cli' extra, say)."""
    for page in PAGES:
        english = _commands((DOCS / f"{page}.md").read_text("utf-8"))
        translated = _commands((DOCS / f"{page}.{lang}.md").read_text("utf-8"))
        assert translated <= english, (lang, page, sorted(translated - english))
