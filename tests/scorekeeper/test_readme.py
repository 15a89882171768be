"""The README stays a page for users and operators: short, and naming every setting.

The settings' variables are found in the code, not listed here: a variable that
``scorekeeper/settings.py`` or ``gunicorn.conf.py`` starts reading is a failure until the
README's "Settings" names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_LINES = 400


def variables_read(path: Path) -> set[str]:
    """The environment variables a module reads: the first argument of a call to one of
    ``server/env.py``'s ``env_*`` helpers, of ``os.environ.get`` or of gunicorn's ``_int``,
    and any ``os.environ["NAME"]``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name: ast.expr | None = None
        if isinstance(node, ast.Call) and node.args:
            function = ast.unparse(node.func)
            if function.startswith("env_") or function in {"os.environ.get", "_int"}:
                name = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            name = node.slice
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            found.add(name.value)
    return found


def test_the_readme_is_at_most_400_lines() -> None:
    assert len(README.splitlines()) <= MAX_LINES


def test_the_readme_names_every_environment_variable_the_settings_read() -> None:
    read = variables_read(ROOT / "scorekeeper" / "settings.py")
    read |= variables_read(ROOT / "gunicorn.conf.py")
    assert {"DEBUG", "DATABASE_URL", "REDIS_URL", "RELEASE", "DEV_TOOLS", "WEB_CONCURRENCY"} <= read
    missing = sorted(name for name in read if f"`{name}`" not in README)
    assert missing == []
