"""The compiled engines (``rules.native``): used when built from today's sources, never when stale,
and they play exactly the games of the plain Python engines."""
from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rules import native

ROOT = Path(__file__).resolve().parent.parent


def _cannot_build() -> str:
    """Why this machine cannot compile the engines ("" when it can)."""
    try:
        importlib.import_module("Cython")
    except ImportError:
        return "Cython is not installed"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    return ""


def _pure_env() -> dict[str, str]:
    return {**os.environ, native.PURE_ENV: "1"}


def test_the_engines_run_compiled_from_todays_sources():
    """``./dev`` builds them; a stale or missing build here means the suite (and the site) measure
    the slow engines."""
    if native.forced_pure():
        pytest.skip(f"{native.PURE_ENV} is set: this run checks the plain Python engines")
    if why := _cannot_build():
        pytest.skip(f"{why}: the engines run as plain Python here")
    for module in native.MODULES:
        importlib.import_module(module)
    states = native.status()
    assert set(states) == set(native.MODULES)
    not_compiled = {m: s for m, s in states.items() if s != "compiled"}
    assert not not_compiled, f"run `python -m rules.native build` (./dev does): {not_compiled}"
    assert native.summary().startswith("engines: compiled")


def test_compiled_and_plain_python_engines_play_the_same_games():
    """Every sample deck of the five games, and the real Lycee and Chaos decks when the data is here:
    400 games each, the first 40 with their whole event logs."""
    import tests.native_fingerprint as fp

    if not native.summary().startswith("engines: compiled"):
        pytest.skip(f"nothing compiled to compare in this run ({native.summary()})")
    compiled = fp.fingerprints()
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "native_fingerprint.py")], cwd=ROOT,
                         env=_pure_env(), capture_output=True, text=True, check=True)
    plain = json.loads(out.stdout)
    assert plain["summary"] == f"engines: plain Python in {len(native.MODULES)} of {len(native.MODULES)} modules " \
                               f"({native.PURE_ENV} is set)"
    assert len(compiled) >= 10
    assert plain["decks"] == compiled


def _demo(tmp_path: Path, body: str) -> None:
    pkg = tmp_path / "demo_pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "m.py").write_text(body, encoding="utf-8")


def _import_demo(tmp_path: Path, out: Path) -> subprocess.CompletedProcess:
    code = (
        "import sys\nfrom pathlib import Path\n"
        f"sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(tmp_path)!r})\n"
        "from rules.native import NativeFinder\n"
        f"sys.meta_path.insert(0, NativeFinder(['demo_pkg.m'], root=Path({str(tmp_path)!r}), build=Path({str(out)!r})))\n"
        "import demo_pkg.m as m\nprint(m.__file__, m.f(21))\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)


def test_a_build_is_used_only_while_its_source_is_unchanged(tmp_path):
    if why := _cannot_build():
        pytest.skip(f"{why}: nothing can be compiled here")
    out = tmp_path / "build"
    _demo(tmp_path, "def f(x):\n    return x * 2\n")
    assert native.build(["demo_pkg.m"], root=tmp_path, out=out) == ["demo_pkg.m"]
    assert native.build(["demo_pkg.m"], root=tmp_path, out=out) == []  # current: nothing to do
    assert not list(tmp_path.joinpath("demo_pkg").glob("*.c")), "C sources belong under the build folder"

    run = _import_demo(tmp_path, out)
    path, value = run.stdout.split()
    assert path.endswith(native.EXT_SUFFIX) and path.startswith(str(out)) and value == "42"
    assert run.stderr == ""

    _demo(tmp_path, "def f(x):\n    return x * 3\n")  # edited after the build: the .py must run
    run = _import_demo(tmp_path, out)
    path, value = run.stdout.split()
    assert path == str(tmp_path / "demo_pkg" / "m.py") and value == "63"
    assert "demo_pkg.m: compiled engine not used (source changed since the build)" in run.stderr

    assert native.build(["demo_pkg.m"], root=tmp_path, out=out) == ["demo_pkg.m"]
    path, value = _import_demo(tmp_path, out).stdout.split()
    assert path.endswith(native.EXT_SUFFIX) and value == "63"

    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["ext_suffix"] = ".cpython-299-elsewhere.so"  # a build for another Python is never loaded
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    run = _import_demo(tmp_path, out)
    assert run.stdout.split()[0].endswith("m.py") and "built for another Python" in run.stderr

    (out / "manifest.json").write_text(json.dumps({"modules": {"demo_pkg.m": "?"}}), encoding="utf-8")
    run = _import_demo(tmp_path, out)  # a damaged manifest: the .py, never an import error
    assert run.stdout.split()[0].endswith("m.py") and "unreadable build manifest" in run.stderr
    (out / "manifest.json").write_text("not json", encoding="utf-8")
    run = _import_demo(tmp_path, out)
    assert run.stdout.split() == [str(tmp_path / "demo_pkg" / "m.py"), "63"] and run.stderr == ""


def test_the_plain_engines_can_be_forced():
    code = ("import rules.lycee.engine.state as s, rules.native as n\n"
            "print(s.__file__)\nprint(n.summary())\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_pure_env(), capture_output=True,
                         text=True, check=True)
    path, summary = out.stdout.splitlines()
    assert path == str(ROOT / "rules" / "lycee" / "engine" / "state.py")
    assert summary == f"engines: plain Python in {len(native.MODULES)} of {len(native.MODULES)} modules " \
                      f"({native.PURE_ENV} is set)"


def test_every_listed_module_exists_and_is_an_engine_module():
    for module in native.MODULES:
        assert native.source_path(module).is_file(), module
        assert ".engine." in module or module.startswith("rules.engine."), module
