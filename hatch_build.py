"""Compiles the translation catalogs (``bot/i18n/locale/*/LC_MESSAGES/*.po``) to ``.mo`` files when
the wheel is built, so an installed bot loads them without Babel's compiler."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogs(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "compile-catalogs"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root) / "bot" / "i18n" / "locale"
        for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
            language = po.parent.parent.name
            with po.open("rb") as source:
                catalog = read_po(source, locale=language)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as out:
                write_mo(out, catalog, use_fuzzy=False)
            build_data.setdefault("force_include", {})[str(mo)] = str(mo.relative_to(self.root))
