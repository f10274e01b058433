"""The Discord layer's place in the import graph: no circle back to the app or the cogs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    """Every module a file imports, wherever the import statement is (also under TYPE_CHECKING)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def under(names: set[str], *packages: str) -> set[str]:
    return {name for name in names if any(name == p or name.startswith(p + ".") for p in packages)}


@pytest.mark.parametrize("path", sorted((ROOT / "bot" / "discord_ui").glob("*.py")), ids=lambda p: p.name)
def test_the_discord_layer_imports_neither_the_app_nor_the_cogs(path: Path) -> None:
    assert under(imported(path), "bot.app", "cogs") == set()


@pytest.mark.parametrize("path", sorted((ROOT / "cogs").glob("*.py")), ids=lambda p: p.name)
def test_no_cog_imports_another_cog_or_the_app(path: Path) -> None:
    assert under(imported(path), "bot.app", "cogs") == set()


def test_the_table_manager_knows_nothing_of_discord() -> None:
    names = imported(ROOT / "bot" / "tables.py")
    assert under(names, "discord", "bot.discord_ui", "bot.app", "cogs") == set()


def test_the_app_only_wires_the_layer_together() -> None:
    source = (ROOT / "bot" / "app.py").read_text(encoding="utf-8")
    assert under(imported(ROOT / "bot" / "app.py"), "bot.discord_ui.components", "bot.render") == set()
    assert "add_dynamic_items" not in source  # each extension registers its own persistent items


@pytest.mark.parametrize("path", sorted((ROOT / "bot" / "store").glob("*.py")), ids=lambda p: p.name)
def test_the_store_imports_neither_the_table_manager_nor_the_discord_layer(path: Path) -> None:
    forbidden = ("discord", "bot.tables", "bot.table_model", "bot.discord_ui", "bot.app", "cogs")
    assert under(imported(path), *forbidden) == set()
