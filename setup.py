"""pip install . : the module python/mtlbx with libmtlbx built from this
tree and bundled inside it (mtlbx/libmtlbx.so.N), so that `import mtlbx`
needs no libmtlbx installed on the system. The module's loader
(python/mtlbx/_native.py) tries the bundled copy first.

The library is built with the project's own configure and make, out of
tree under setuptools' build directory; a tree already configured in
place (./configure was run here) is built in place instead, since
configure refuses a second, out-of-tree build of it. Only the library is
made (make src/lib/libmtlbx.la), not the program or the tests. The wheel
holds a compiled library, so it is tagged for the platform (py3-none-
linux_x86_64, say: ctypes needs no particular Python ABI), never "pure".
"""
import os
import re
import shutil
import base64
import hashlib
import subprocess
import sys
import sysconfig
import zipfile

from setuptools import Command, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # a Python without wheel: PlainWheel below
    bdist_wheel = None

TOP = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(TOP, "configure.ac")) as f:
        return re.search(r"AC_INIT\(\[mtlbx\], \[([^]]+)\]", f.read()).group(1)


def make_variable(makefile, name):
    with open(makefile) as f:
        for line in f:
            if line.startswith(name + " = "):
                return line.split("=", 1)[1].strip()
    raise RuntimeError("%s names no %s" % (makefile, name))


def build_libmtlbx(build_temp):
    """Builds libmtlbx; returns the path of the shared library file."""
    jobs = str(os.cpu_count() or 1)
    if os.path.exists(os.path.join(TOP, "config.status")):
        builddir = TOP
    else:
        if not os.path.exists(os.path.join(TOP, "configure")):
            subprocess.check_call(["sh", os.path.join(TOP, "autogen.sh")], cwd=TOP)
        builddir = os.path.join(os.path.abspath(build_temp), "libmtlbx")
        os.makedirs(builddir, exist_ok=True)
        if not os.path.exists(os.path.join(builddir, "config.status")):
            subprocess.check_call([os.path.join(TOP, "configure"), "--without-criterion",
                                   "--disable-static", "--enable-silent-rules"], cwd=builddir)
    subprocess.check_call(["make", "-j" + jobs, "src/lib/libmtlbx.la"], cwd=builddir)
    soname = make_variable(os.path.join(builddir, "Makefile"), "MTLBX_SONAME_FILE")
    return os.path.join(builddir, "src", "lib", ".libs", soname)


class BuildPyWithLibrary(build_py):
    """build_py, then the library copied into the package (not a link:
    the wheel must hold the file itself)."""

    def run(self):
        super().run()
        library = build_libmtlbx(self.get_finalized_command("build").build_temp)
        target = os.path.join(self.build_lib, "mtlbx", os.path.basename(library))
        shutil.copyfile(os.path.realpath(library), target)
        os.chmod(target, 0o755)
        # The debugging information is most of the file (configure's
        # default CFLAGS are -g -O2): the wheel carries the code alone.
        strip = shutil.which("strip")
        if strip and sys.platform.startswith("linux"):  # GNU strip's option
            subprocess.check_call([strip, "--strip-unneeded", target])


class PlainWheel(Command):
    """bdist_wheel where the wheel package is missing (pip install
    --no-build-isolation with a Python that has setuptools alone, such as
    a pyenv build): the wheel is a zip of the built package with its
    .dist-info (METADATA, WHEEL, RECORD), tagged py3-none-PLATFORM.
    setuptools asks this command for egg2dist to make the metadata."""

    description = "build a platform wheel without the wheel package"
    user_options = [("dist-dir=", "d", "where the .whl goes")]

    def initialize_options(self):
        self.dist_dir = None

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    @staticmethod
    def egg2dist(egg_info, dist_info):
        os.makedirs(dist_info, exist_ok=True)
        shutil.copyfile(os.path.join(egg_info, "PKG-INFO"), os.path.join(dist_info, "METADATA"))
        shutil.rmtree(egg_info)

    def run(self):
        self.run_command("build")
        build_lib = self.get_finalized_command("build").build_lib
        egg_info = self.get_finalized_command("egg_info")
        self.run_command("egg_info")
        name, ver = self.distribution.get_name(), self.distribution.get_version()
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        tag = "py3-none-" + platform
        dist_info = "%s-%s.dist-info" % (name, ver)
        with open(os.path.join(egg_info.egg_info, "PKG-INFO"), "rb") as f:
            metadata = f.read()
        wheel_text = ("Wheel-Version: 1.0\nGenerator: mtlbx setup.py\nRoot-Is-Purelib: false\n"
                      "Tag: %s\n" % tag).encode()
        os.makedirs(self.dist_dir, exist_ok=True)
        path = os.path.join(self.dist_dir, "%s-%s-%s.whl" % (name, ver, tag))
        records = []

        def add(z, arcname, data):
            z.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))

        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for root, _, files in sorted(os.walk(build_lib)):
                for file in sorted(files):
                    full = os.path.join(root, file)
                    with open(full, "rb") as f:
                        add(z, os.path.relpath(full, build_lib).replace(os.sep, "/"), f.read())
            add(z, dist_info + "/METADATA", metadata)
            add(z, dist_info + "/WHEEL", wheel_text)
            records.append(dist_info + "/RECORD,,")
            z.writestr(dist_info + "/RECORD", "\n".join(records) + "\n")


commands = {"build_py": BuildPyWithLibrary, "bdist_wheel": PlainWheel}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    commands["bdist_wheel"] = PlatformWheel

setup(
    version=version(),
    package_dir={"": "python"},
    packages=["mtlbx"],
    package_data={"mtlbx": ["py.typed"]},
    cmdclass=commands,
    zip_safe=False,
)
