"""The goldfish engines' hot modules compiled to C with Cython, used only while they match their source.

The engines are plain Python and stay the single source of truth. ``python -m rules.native build``
(run by ``./dev`` before the site or the tests start) compiles the modules named in ``MODULES`` —
unchanged, in Cython's pure-Python mode with annotations ignored, so they keep Python's semantics —
into ``build/native/`` beside the project, with a manifest of each source's SHA-256. ``install()``
(called when the ``rules`` package is imported) puts a finder in front of the import system that
loads a compiled module only when the source it was built from is byte-identical to the ``.py`` of
today; an edited, missing or foreign-Python build is ignored, with one warning, and the ``.py`` is
imported as usual. So the compiled engines play exactly the games of the plain ones (the tests check
it game by game), a worker without a C compiler simply runs the plain ones, and
``RULES_PURE_PYTHON=1`` forces the plain ones anywhere.

    python -m rules.native build     # compile what is missing or stale (nothing to do: no output)
    python -m rules.native status    # which engine modules run compiled, and why not
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import sys
import sysconfig
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: The modules a goldfish game spends its time in (the ability *compilers*, the tables and the
#: packages' ``__init__`` stay plain: they run once per card or once per process).
MODULES: tuple[str, ...] = (
    "rules.engine.goldfish",
    "rules.engine._zones",
    "rules.pc.engine.state",
    "rules.pc.engine.pilot",
    "rules.phantasma.engine.state",
    "rules.phantasma.engine.pilot",
    "rules.phantasma.engine.characters",
    "rules.phantasma.engine.dummy",
    "rules.ws.engine.state",
    "rules.ws.engine.pilot",
    "rules.ws.engine.effects",
    "rules.chaos.engine.state",
    "rules.chaos.engine.pilot",
    "rules.chaos.engine.characters",
    "rules.lycee.engine.state",
    "rules.lycee.engine.pilot",
    "rules.lycee.engine.effects",
    "rules.lycee.engine.payment",
    "rules.lycee.engine.field",
    "rules.lycee.engine.info",
)

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "native"
PURE_ENV = "RULES_PURE_PYTHON"
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
# Cython's pure-Python mode, Python's semantics: annotations are documentation, not C types
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True, "warn.unreachable": False}


def forced_pure() -> bool:
    """Whether ``RULES_PURE_PYTHON`` asks for the plain Python engines in this process."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_path(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def read_manifest(build: Path = BUILD) -> dict[str, Any]:
    try:
        data = json.loads((build / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _verdict(module: str, manifest: dict[str, Any], root: Path, build: Path) -> tuple[Path | None, str]:
    """``(compiled file, "")`` when ``module`` may load compiled, else ``(None, why not)``."""
    entries = manifest.get("modules")
    entry = entries.get(module) if isinstance(entries, dict) else None
    if entry is None:
        return None, "not built"
    if not (isinstance(entry, dict) and isinstance(entry.get("file"), str) and isinstance(entry.get("sha256"), str)):
        return None, "unreadable build manifest"
    if manifest.get("ext_suffix") != EXT_SUFFIX:
        return None, f"built for another Python ({manifest.get('ext_suffix')})"
    compiled = build / entry["file"]
    if not compiled.is_file():
        return None, "compiled file missing"
    if digest(source_path(module, root)) != entry["sha256"]:
        return None, "source changed since the build"
    return compiled, ""


class NativeFinder(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their compiled build while it matches their source."""

    def __init__(self, modules: Iterable[str], root: Path = ROOT, build: Path = BUILD) -> None:
        self.modules = frozenset(modules)
        self.root, self.build = root, build
        self._manifest: dict[str, Any] | None = None
        self.reasons: dict[str, str] = {}  # module -> why its source was imported instead

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: Any = None) -> Any:
        if fullname not in self.modules:
            return None
        if self._manifest is None:
            self._manifest = read_manifest(self.build)
        compiled, why = _verdict(fullname, self._manifest, self.root, self.build)
        if compiled is None:
            self.reasons[fullname] = why
            if why != "not built":
                warnings.warn(f"{fullname}: compiled engine not used ({why}); plain Python runs the same "
                              "games slower — `python -m rules.native build` recompiles it",
                              RuntimeWarning, stacklevel=2)
            return None  # the usual finders import the .py
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(compiled))
        return importlib.util.spec_from_file_location(fullname, compiled, loader=loader)


_finder: NativeFinder | None = None


def install() -> None:
    """Put the finder in front of the import system (once; not with ``RULES_PURE_PYTHON`` set)."""
    global _finder
    if _finder is not None or forced_pure():
        return
    _finder = NativeFinder(MODULES)
    sys.meta_path.insert(0, _finder)


def status() -> dict[str, str]:
    """Each engine module: ``"compiled"``, or ``"python: <why>"`` (imported or not yet)."""
    out = {}
    for module in MODULES:
        loaded = sys.modules.get(module)
        if forced_pure():
            out[module] = f"python: {PURE_ENV} is set"
        elif loaded is not None and str(getattr(loaded, "__file__", "")).endswith(EXT_SUFFIX):
            out[module] = "compiled"
        elif _finder is not None and module in _finder.reasons:
            out[module] = f"python: {_finder.reasons[module]}"
        else:
            compiled, why = _verdict(module, read_manifest(), ROOT, BUILD)
            out[module] = ("compiled" if compiled else f"python: {why}") + ("" if loaded else " (not imported)")
    return out


def summary() -> str:
    """One line for benchmark output: how the engines run in this process."""
    states = status()
    compiled = sum(1 for s in states.values() if s.startswith("compiled"))
    if compiled == len(states):
        return f"engines: compiled (Cython {read_manifest().get('cython', '?')}), {compiled} of {len(states)} modules"
    reasons = sorted({s.split(": ", 1)[-1].removesuffix(" (not imported)") for s in states.values()
                      if not s.startswith("compiled")})
    return f"engines: plain Python in {len(states) - compiled} of {len(states)} modules ({'; '.join(reasons)})"


def build(modules: Sequence[str] = MODULES, root: Path = ROOT, out: Path = BUILD,
          force: bool = False, quiet: bool = True) -> list[str]:
    """Compile the ``modules`` (dotted names under ``root``) whose build is missing or stale into
    ``out``; the names compiled. Raises when Cython or the C compiler fails. The sources' hashes
    decide what is stale (file times can lie, and Cython caches them per process), so what is
    compiled is compiled from scratch."""
    manifest = read_manifest(out)
    if manifest.get("ext_suffix") != EXT_SUFFIX:
        manifest = {}
    entries: dict[str, Any] = dict(manifest["modules"]) if isinstance(manifest.get("modules"), dict) else {}
    todo = [m for m in modules if force or _verdict(m, {**manifest, "modules": entries}, root, out)[0] is None]
    if not todo:
        return []
    from Cython import __version__ as cython_version  # build-time only (the site never needs it)
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    hashes = {m: digest(source_path(m, root)) for m in todo}
    out = out.resolve()
    jobs = os.cpu_count() or 1
    with contextlib.chdir(root):  # relative sources: Cython writes their C under build_dir, not beside them
        extensions = [Extension(m, [str(source_path(m, Path()))], extra_compile_args=["-g0"]) for m in todo]
        compiled = cythonize(extensions, build_dir=str(out / "c"), compiler_directives=DIRECTIVES,
                             quiet=quiet, nthreads=jobs if jobs > 1 else 0, force=True)
        dist = Distribution({"name": "rules-native", "ext_modules": compiled})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib, cmd.build_temp, cmd.parallel, cmd.force = str(out / "lib"), str(out / "tmp"), jobs, True
        cmd.ensure_finalized()
        with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
            cmd.run()
    for m in todo:
        rel = Path("lib", *m.split(".")).with_name(m.rsplit(".", 1)[-1] + EXT_SUFFIX)
        if not (out / rel).is_file():
            raise RuntimeError(f"{m}: the build left no {rel}")
        entries[m] = {"file": str(rel), "sha256": hashes[m]}
    out.mkdir(parents=True, exist_ok=True)
    data = {"ext_suffix": EXT_SUFFIX, "cython": cython_version, "modules": dict(sorted(entries.items()))}
    tmp = out / "manifest.json.tmp"
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.replace(out / "manifest.json")
    return todo
