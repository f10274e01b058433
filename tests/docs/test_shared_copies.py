"""The project's shared spec, copied into the repository so that a clone has it: the rules
(``../shared/rules/*.md`` and ``sources/*`` as ``docs/rules/``) and the engine bench's reference
playout (``../shared/bench/reference_playout.py`` as ``bench/reference_playout.py``). A copy in the
repository must match its original, so where ``../shared`` is beside the checkout (CI, the
project's machines; beside the folder of a git worktree too) every copy is compared with it byte for
byte, and every file of the shared spec must have its copy. A clone without ``../shared`` skips
these tests, saying so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def find_shared() -> Path | None:
    """``../shared`` beside the checkout, or beside the folder holding it (a worktree's folder)."""
    for parent in (ROOT.parent, ROOT.parent.parent):
        if (parent / "shared" / "rules").is_dir():
            return parent / "shared"
    return None


SHARED = find_shared()
needs_shared = pytest.mark.skipif(
    SHARED is None, reason="no ../shared beside this checkout: the copies have nothing to be compared with"
)


def copies(shared: Path) -> dict[Path, Path]:
    """Each shared file the repository copies, and where its copy lives."""
    found = {source: ROOT / "docs" / "rules" / source.name for source in (shared / "rules").glob("*.md")}
    found |= {
        source: ROOT / "docs" / "rules" / "sources" / source.name
        for source in (shared / "rules" / "sources").iterdir()
        if source.is_file()
    }
    found[shared / "bench" / "reference_playout.py"] = ROOT / "bench" / "reference_playout.py"
    return found


@needs_shared
def test_every_shared_spec_file_has_a_copy_that_matches_it() -> None:
    assert SHARED is not None
    pairs = copies(SHARED)
    assert len(pairs) >= 7  # three rules files, three sources, the reference playout
    for source, copy in pairs.items():
        assert copy.exists(), f"{source} has no copy at {copy.relative_to(ROOT)}"
        assert copy.read_bytes() == source.read_bytes(), (
            f"{copy.relative_to(ROOT)} differs from {source}: copy the shared file again"
        )


def test_the_copies_are_in_the_repository() -> None:
    """What the code and README cite is there in any clone, ``../shared`` or not."""
    for name in ("pitch.md", "pinochle.md", "double-deck-pinochle.md"):
        assert (ROOT / "docs" / "rules" / name).is_file()
    assert any((ROOT / "docs" / "rules" / "sources").glob("*.txt"))
    assert (ROOT / "bench" / "reference_playout.py").is_file()


def test_no_citation_points_outside_the_repository() -> None:
    """Docstrings and docs cite the copies (``docs/rules/…``, ``bench/reference_playout.py``), never
    ``shared/rules/…`` or ``shared/bench/…``, which a clone does not have; the few places that name
    ``../shared`` do so to say what a copy was copied from."""
    allowed = {
        "README.md",
        "pyproject.toml",
        "bench/engine.py",
        "bench/reference_playout.py",
        "tests/docs/test_shared_copies.py",
    }
    offenders = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        for name in names:
            path = Path(folder, name)
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in {".py", ".md", ".toml", ".txt"} or relative in allowed:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "shared/rules/" in text or "shared/bench/" in text:
                offenders.append(relative)
    assert not offenders, f"cite docs/rules/ or bench/ instead of ../shared in: {offenders}"
