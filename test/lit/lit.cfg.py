# lit configuration of the gpuss-translate suite.
import os
import subprocess
import sys

import lit.formats

config.name = "GPUSs-translator"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gpuss_build_dir, "test", "lit")

# FileCheck and not come from LLVM 19.
config.environment["PATH"] = os.pathsep.join([config.llvm_bin_dir, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

bin_dir = config.gpuss_bin_dir
config.substitutions.append(("%gpuss-translate", os.path.join(bin_dir, "gpuss-translate")))
config.substitutions.append(("%gpuss-cxx", os.path.join(bin_dir, "gpuss-c++")))
config.substitutions.append(("%gpuss-cc", os.path.join(bin_dir, "gpuss-cc")))
# gpuss.h is in the source tree, gpuss_version.h (which it includes) in the
# build tree: `-I %gpuss-include` names both.
config.substitutions.append(("%gpuss-include", "%s -I %s" % (os.path.join(config.gpuss_source_dir, "include"),
                                                             os.path.join(config.gpuss_build_dir, "include"))))
config.substitutions.append(("%gpuss-lib", config.gpuss_lib_dir))
config.substitutions.append(("%gpuss-build", config.gpuss_build_dir))
config.substitutions.append(("%gpuss-src", config.gpuss_source_dir))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%ninja", config.ninja))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%cc", config.cc))
config.substitutions.append(("%gpuss-version", config.gpuss_version))
# Tests of what gcc accepts and Clang rejects need gcc as the wrapped compiler.
try:
    cc_version = subprocess.run([config.cc, "--version"], capture_output=True, text=True).stdout
except OSError:
    cc_version = ""
if "Free Software Foundation" in cc_version:
    config.available_features.add("gcc")
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
if os.path.isdir("/usr/local/cuda/include"):
    config.available_features.add("cuda-headers")
if config.fuzzer and os.path.exists(config.fuzzer):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%gpuss-fuzzer", config.fuzzer))
# The e2e tests run each program under these runtime configurations.
# FileCheck in RUN lines is Inputs/filecheck.py, which drops the test's own
# directives from the checked input (translated sources keep the test's
# comments, and a CHECK line would otherwise match itself).
config.substitutions.append((r"\bFileCheck\b", "%s %s" % (sys.executable, os.path.join(config.test_source_root, "Inputs", "filecheck.py"))))
config.environment["GPUSS_FILECHECK"] = os.path.join(config.llvm_bin_dir, "FileCheck")
config.substitutions.append(("%run-configs", os.path.join(config.test_source_root, "Inputs", "run-configs.sh")))
