"""Where tools/setup_aarch64.sh unpacked the arm64 sysroot.

A repository rule, so that the path (under the user's cache folder, outside
the workspace) is read from the environment once and the toolchain and the
qemu wrapper can name it as an absolute path: Bazel's sandboxes see absolute
paths outside the execution root, as they see /usr/include for the native
build. Defining the repository costs nothing when the sysroot is absent; only
--config=aarch64 builds use it.
"""

def _aarch64_sysroot_impl(rctx):
    env = rctx.os.environ
    root = env.get("PADDLE_LITE_PLUS_AARCH64") or (env.get("HOME", "/root") + "/.cache/paddle_lite_plus_aarch64")
    sysroot = str(rctx.path(root + "/sysroot"))
    rctx.file("defs.bzl", 'SYSROOT = "%s"\n' % sysroot)

    # CPython 3.11's arm64 headers for the Python module (third_party:pybind11
    # selects them under --config=aarch64): pyconfig.h differs per
    # architecture. An empty glob while the sysroot is absent.
    rctx.symlink(sysroot + "/usr/include/python3.11", "python3.11")
    rctx.file("BUILD", """package(default_visibility = ["//visibility:public"])

exports_files(["defs.bzl"])

cc_library(
    name = "python3_headers",
    hdrs = glob(["python3.11/**/*.h"]),
    includes = ["python3.11"],
)
""")

aarch64_sysroot = repository_rule(
    implementation = _aarch64_sysroot_impl,
    environ = ["PADDLE_LITE_PLUS_AARCH64", "HOME"],
    local = True,
)
