"""Measurements live in ``bench/records/experiments.md``, not in ``bot/ai/hard``'s docstrings
(issue 49): a constant's docstring keeps its purpose, the kept value's headline figure and a link to
its entry there. This holds the docstrings to at most 12% of the package's lines.

A docstring line is a line of any string literal standing as a statement (a module's, class's or
function's docstring, or the attribute docstring under a constant); the share is those lines over
all the lines of ``bot/ai/hard/*.py``. ``python -m tests.ai.test_docstring_share`` prints it, file
by file."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARD = ROOT / "bot" / "ai" / "hard"
EXPERIMENTS = ROOT / "bench" / "records" / "experiments.md"
MOST = 0.12


def docstring_lines(source: str) -> set[int]:
    """The line numbers (from 1) that lie inside a string literal standing as a statement."""
    inside: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            inside.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return inside


def shares(folder: Path = HARD) -> dict[str, tuple[int, int]]:
    """Per file of ``folder``: (docstring lines, all lines)."""
    found = {}
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        found[path.name] = (len(docstring_lines(source)), len(source.splitlines()))
    return found


def share(folder: Path = HARD) -> float:
    counted = shares(folder).values()
    return sum(doc for doc, _ in counted) / sum(lines for _, lines in counted)


def test_docstring_lines_counts_every_kind_of_docstring() -> None:
    source = (
        '"""Module,\ntwo lines."""\nX = 1\n"""X\'s."""\n\n\ndef f():\n    """f."""\n    return "not one"\n'
    )
    assert docstring_lines(source) == {1, 2, 4, 8}


def test_hard_docstrings_are_at_most_12_percent_of_its_lines() -> None:
    found = share()
    assert found <= MOST, (
        f"bot/ai/hard: docstrings are {found:.1%} of its lines (at most {MOST:.0%}): measurements go to "
        "bench/records/experiments.md and the commit message, the docstring keeps a link"
    )


LINK = re.compile(r"bench/records/experiments\.md#([a-z0-9-]+)")


def test_every_link_to_the_experiment_log_finds_its_anchor() -> None:
    anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', EXPERIMENTS.read_text(encoding="utf-8")))
    linked: set[str] = set()
    for path in sorted((ROOT / "bot" / "ai").rglob("*.py")):
        linked.update(LINK.findall(path.read_text(encoding="utf-8")))
    assert linked, "no constant links to bench/records/experiments.md"
    assert linked <= anchors, f"links with no anchor in experiments.md: {sorted(linked - anchors)}"


if __name__ == "__main__":
    for name, (doc, lines) in shares().items():
        print(f"{name:16} {doc:4} / {lines:4} = {doc / lines:6.1%}")
    print(f"bot/ai/hard      {share():.2%} of its lines are docstrings (at most {MOST:.0%})")
