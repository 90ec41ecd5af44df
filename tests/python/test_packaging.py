# test_packaging.py - the module as Python users install it (docs/INSTALL.md), offline:
# `pip install --no-build-isolation ./python` into a virtual environment, and the source
# archive and wheel of `python3 -m build --no-isolation`; the installed module and the
# wheel's each imported from outside the tree and a move played. The interpreter is the
# one running pytest, which `make python-check` makes Debian's /usr/bin/python3 (with
# python3-venv, python3-pip, python3-setuptools and python3-build); the environment gets
# its site packages so that nothing is downloaded. The build reuses the release build's
# objects (python-check is a release build's), so only crownmodule.c is compiled.
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile

import pytest

import crown

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PACKAGE = os.path.join(ROOT, "python")

# Imports the installed module from the folder it runs in and plays a move: prints where
# the module is, its version and the move played.
PLAY = """
import crown
state = crown.load_game("kings-valley").new_initial_state()
action = state.string_to_action("A1A4")
move = state.action_to_string(action)
state.apply_action(action)
print(crown.__file__, crown.__version__, move, state.current_player())
"""


def run(*cmd, cwd=None, pythonpath=None):
    """Runs cmd without the tests' PYTHONPATH (which points at the build's module; there
    is `pythonpath` instead, if given) and the outer make's jobserver; fails the test
    with its output if it fails. Returns its stdout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-4000:]}")
    return done.stdout


def check_plays(python, folder, tmp, pythonpath=None):
    """`python` imports the module from `folder`, this version, and plays a move."""
    out = run(python, "-c", PLAY, cwd=tmp, pythonpath=pythonpath)
    where, version, move, player = out.split()
    assert where.startswith(folder + os.sep), f"imported {where}, not the module in {folder}"
    assert version == crown.__version__
    assert (move, player) == ("a1-a4", "1")


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory() as d:
        yield d


@pytest.fixture(scope="module")
def venv(tmp):
    path = os.path.join(tmp, "venv")
    run(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", path)
    return path


def test_pip_install(venv, tmp):
    before = sorted(os.listdir(PACKAGE))
    run(os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--no-index",
        "--no-build-isolation", "--no-deps", "--no-cache-dir", "--disable-pip-version-check",
        PACKAGE, cwd=tmp)
    check_plays(os.path.join(venv, "bin", "python"), venv, tmp)
    assert sorted(os.listdir(PACKAGE)) == before, "the build left files in python/"


def test_build_sdist_and_wheel(tmp):
    dist = os.path.join(tmp, "dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
        "--outdir", dist, PACKAGE)
    version = crown.__version__
    names = sorted(os.listdir(dist))
    assert len(names) == 2 and names[0].startswith(f"crown-{version}-cp3"), names
    assert names[0].endswith(".whl") and names[1] == f"crown-{version}.tar.gz", names

    # The wheel is the module and its metadata; unpacked (what installing it does for a
    # lone extension module), it imports and plays.
    unpacked = os.path.join(tmp, "wheel")
    with zipfile.ZipFile(os.path.join(dist, names[0])) as wheel:
        inside = wheel.namelist()
        modules = [n for n in inside if n.startswith("crown.") and n.endswith(".so")]
        assert len(modules) == 1, inside
        metadata = wheel.read(f"crown-{version}.dist-info/METADATA").decode()
        assert f"Version: {version}" in metadata
        wheel.extractall(unpacked)
    check_plays(sys.executable, unpacked, tmp, pythonpath=unpacked)

    # The source archive builds with no repository around it: it holds every file the
    # Makefile builds the module from, and there make finds all it needs.
    sources = run("make", "-s", "--no-print-directory", "-C", ROOT, "python-sources").split()
    top = f"crown-{version}"
    with tarfile.open(os.path.join(dist, names[1])) as archive:
        inside = set(archive.getnames())
        missing = [f for f in sources + ["setup.py", "pyproject.toml", "LICENSE"]
                   if f"{top}/{f}" not in inside]
        assert not missing, f"the source archive lacks {missing}"
        archive.extractall(tmp)
    module = os.path.join(tmp, "crown.so")
    plan = run("make", "-n", "--no-print-directory", "-C", os.path.join(tmp, top),
               "BUILD=release", f"PY_MOD={module}", module)
    assert "crownmodule.c" in plan
