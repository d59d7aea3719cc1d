"""``durak rules``: the presets (R14) in a table, one preset's every setting, or a preset as a
TOML or JSON rules file for ``--rules FILE``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from durak.cli.console import _console, _error_text, _fail
from durak.errors import RulesError
from durak.i18n import Language, choose_language, language
from durak.presets import DEFAULT_PRESET, PRESETS, Preset, dumps_rules, get_preset
from durak.rules import Rules
from durak.rules.settings import SETTINGS


def _setting_text(value: Any) -> str:
    """A setting's plain value (:meth:`Rules.to_dict`) as the settings table writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def _presets_table(lang: Language) -> Table:
    """Every preset: its name, then its description with its aliases and source below, in
    ``lang`` (the names and aliases as they are: ``--preset`` takes them)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for preset in PRESETS.values():
        name = preset.name
        if preset.name == DEFAULT_PRESET:
            name += " " + lang.gettext("(default)")
        about = Text(lang.gettext(preset.description) + "\n")
        aliases = ", ".join(preset.aliases) or "-"
        line = lang.gettext("aliases: {aliases}   source: {source}")
        about.append(line.format(aliases=aliases, source=lang.gettext(preset.source)), style="dim")
        table.add_row(name, about)
    return table


def _preset_details(preset: Preset, lang: Language) -> Group:
    """A preset's header and every setting of its rules, the ones that differ from the
    defaults of :class:`~durak.rules.Rules` marked ``*`` with the default beside them; the
    labels, description and source in ``lang``, the settings' names and values as the rules
    file writes them."""
    rules = preset.rules().to_dict(every=True)
    defaults = Rules().to_dict(every=True)
    head = Text.assemble((preset.name, "bold"), f": {lang.gettext(preset.description)}")
    about = Table.grid(padding=(0, 2))
    about.add_column(style="dim")
    about.add_column()
    about.add_row(lang.gettext("aliases"), ", ".join(preset.aliases) or "-")
    about.add_row(lang.gettext("source"), lang.gettext(preset.source))
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column(lang.gettext("setting"), no_wrap=True)
    table.add_column(lang.gettext("value"))
    table.add_column(lang.gettext("default"), style="dim")
    changed = 0
    for name in SETTINGS:
        value, default = rules[name], defaults[name]
        if value != default:
            changed += 1
            table.add_row(
                Text(f"* {name}", style="bold"),
                Text(_setting_text(value), style="bold"),
                _setting_text(default),
            )
        else:
            table.add_row(f"  {name}", _setting_text(value), "")
    note = lang.ngettext(
        "* differs from the default ({n} setting); "
        "'durak rules {name} --toml' prints it as a rules file for --rules",
        "* differs from the default ({n} settings); "
        "'durak rules {name} --toml' prints it as a rules file for --rules",
        changed,
    )
    return Group(head, about, table, Text(note.format(n=changed, name=preset.name), style="dim"))


def _cmd_rules(args: argparse.Namespace) -> int:
    """``durak rules [NAME] [--toml | --json] [--lang LANG]``: the tables in the language of
    ``--lang``, else of the environment (as ``durak play``); ``--toml`` and ``--json`` print
    the rules files' data as it is."""
    out = _console(sys.stdout)
    try:
        lang = language(choose_language(getattr(args, "lang", None)))
    except ValueError as exc:
        return _fail(f"--lang: {exc}")
    if args.name is None:
        if args.toml:
            return _fail(
                lang.gettext(
                    "--toml prints one preset's rules: name it, e.g. durak rules podkidnoy"
                )
            )
        if args.json:
            listing = [
                {
                    "name": p.name,
                    "aliases": list(p.aliases),
                    "description": p.description,
                    "source": p.source,
                    "settings": dict(p.settings),
                }
                for p in PRESETS.values()
            ]
            print(json.dumps(listing, ensure_ascii=False, indent=2))
            return 0
        out.print(_presets_table(lang))
        out.print(
            Text(lang.gettext("'durak rules NAME' shows every setting of a preset."), style="dim")
        )
        return 0
    try:
        preset = get_preset(args.name)
    except RulesError as exc:
        return _fail(_error_text(exc, lang))
    if args.toml:
        text = f"# durak rules file: preset {preset.name}: {preset.description}\n"
        sys.stdout.write(text + dumps_rules(preset.rules(), "toml"))
    elif args.json:
        sys.stdout.write(dumps_rules(preset.rules(), "json"))
    else:
        out.print(_preset_details(preset, lang))
    return 0
