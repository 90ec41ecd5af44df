"""
setup.py - the build of the Python module `crown` for pip and `python3 -m build`
(pyproject.toml holds the package's description).

The extension is compiled by the Makefile's own rule (`make python`) with the running
interpreter's headers, so that the engine's list of sources, the compiler flags and the
link line stay written once, there. In the repository the engine's objects are the
tree's build/release ones, which `make` keeps: a pip install after `make` compiles
crownmodule.c alone. The source archive carries the Makefile and the files it builds the
module from (`make python-sources`) at its top, beside this file, and builds there.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
# In the repository this file is python/setup.py; in the source archive it is beside
# the Makefile.
ROOT = HERE if os.path.isfile(os.path.join(HERE, "Makefile")) else os.path.dirname(HERE)


def make(*args):
    """Runs make in ROOT for a release build and returns its output. Variables that an
    outer make or the caller's environment would pass down (another build, another
    output folder, a jobserver that is not there) are left out."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "BUILD", "OUT")}
    cmd = ["make", "--no-print-directory", "-C", ROOT, "BUILD=release"] + list(args)
    try:
        return subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    except FileNotFoundError:
        sys.exit("building crown needs make and a C compiler (Debian: build-essential)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"building crown: {' '.join(cmd)} failed with status {e.returncode}")


def version():
    with open(os.path.join(ROOT, "include", "crown.h"), encoding="utf-8") as f:
        found = re.search(r'^#define CROWN_VERSION "([^"]+)"', f.read(), re.M)
    if found is None:
        sys.exit("include/crown.h has no CROWN_VERSION")
    return found.group(1)


class BuildWithMake(build_ext):
    """The module is the Makefile's PY_MOD, made where setuptools wants the extension.
    Warnings are not errors here: a user's newer compiler may warn where the project's
    does not, and `make test` already builds the module with -Werror."""

    def build_extension(self, ext):
        # Made in the temporary folder, where the compiler's dependency file beside it
        # stays, then copied to where setuptools packs it.
        dest = self.get_ext_fullpath(ext.name)
        built = os.path.join(os.path.abspath(self.build_temp), os.path.basename(dest))
        os.makedirs(os.path.dirname(built), exist_ok=True)
        jobs = f"-j{os.cpu_count() or 1}"
        out = make(jobs, "WERROR=0", f"PYTHON={sys.executable}", f"PY_MOD={built}", built)
        sys.stdout.write(out)
        self.mkpath(os.path.dirname(dest))
        self.copy_file(built, dest)


class SdistWithEngine(sdist):
    """The source archive: this package's files, the license and what the Makefile builds
    the module from, so that it builds with no repository around it."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        for rel in make("-s", "python-sources").split() + ["LICENSE"]:
            dest = os.path.join(base_dir, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, rel), dest)


# setuptools' own folders (the egg-info, the staged wheel) go to the build folder too,
# so that a build leaves the source folder as it was.
BUILD_BASE = os.path.join(ROOT, "build", "setuptools")
os.makedirs(BUILD_BASE, exist_ok=True)

setup(
    version=version(),
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    # No sources of its own: BuildWithMake builds it.
    ext_modules=[Extension("crown", sources=[])],
    cmdclass={"build_ext": BuildWithMake, "sdist": SdistWithEngine},
)
