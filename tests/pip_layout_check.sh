#!/usr/bin/env bash
# cuarray finding CUDA's libraries where NVIDIA's pip wheels put them, on a machine with a GPU and a CUDA 13
# toolkit but no network (the wheels are not needed): the toolkit's NVRTC, cuBLAS, cuSOLVER and cuFFT (with the
# libraries they need) are laid out as the wheels lay them, site-packages/nvidia/cu13/lib, in a scratch user
# site-packages (PYTHONUSERBASE), where cuda-pathfinder looks as in any site-packages; the toolkit is hidden (a private mount namespace with an empty tmpfs over
# each /usr/local/cuda*), CUDA_PATH, CUDA_HOME and LD_LIBRARY_PATH are unset; then `python -m cuarray` and
# show_config() must say that each library came from that layout, and a quick GPU subset runs.
#
# Usage, as root (for the mount namespace), from the checkout, with cuarray installed or PYTHONPATH set:
#   bash tests/pip_layout_check.sh [pytest arguments]
# (default: tests/test_transfer.py tests/fft tests/linalg/test_solve.py -x -q)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
toolkit_lib=$(readlink -f "${CUDA_PATH:-/usr/local/cuda}/lib64")
[ -e "$toolkit_lib/libnvrtc.so.13" ] || { echo "no CUDA 13 toolkit libraries in $toolkit_lib" >&2; exit 2; }
work=$(mktemp -d /tmp/cuarray-pip-layout.XXXXXX)
trap 'rm -rf "$work"' EXIT
export PYTHONUSERBASE="$work/user"
# The user site-packages where Python has one; in a virtual environment without it, a folder on PYTHONPATH
# (importlib.metadata, through which the libraries are found, reads both).
site=$("$PYTHON" -c 'import site, sys; print(site.getusersitepackages()) if site.ENABLE_USER_SITE else sys.exit(1)') ||
  { site="$work/site"; export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"; echo "== no user site-packages: $site on PYTHONPATH"; }
mkdir -p "$work/real" "$site/nvidia/cu13/lib"
for f in "$toolkit_lib"/lib{nvrtc,nvrtc-builtins,cublas,cublasLt,cusolver,cusparse,cufft,nvJitLink}.so.[0-9]*; do
  ln -s "$work/real/$(basename "$f")" "$site/nvidia/cu13/lib/"
done
# cuda-pathfinder finds a wheel's libraries through its installed files (importlib.metadata): a dist-info
# whose RECORD lists them makes the layout an installed distribution.
info="$site/nvidia_cuda_layout_check-13.0.dist-info"
mkdir -p "$info"
printf 'Metadata-Version: 2.1\nName: nvidia-cuda-layout-check\nVersion: 13.0\n' > "$info/METADATA"
(cd "$site" && for f in nvidia/cu13/lib/*; do echo "$f,,"; done) > "$info/RECORD"
echo "== $(ls "$site/nvidia/cu13/lib" | wc -l) libraries of $toolkit_lib laid out in $site/nvidia/cu13/lib"

if "$PYTHON" -c "import cuda.pathfinder" 2>/dev/null; then
  echo "== cuda-pathfinder $("$PYTHON" -c "import cuda.pathfinder as p; print(p.__version__)")"
else
  # No network to install it: a stand-in with its one function cuarray calls, searching the same layout and
  # loading the libraries each one needs first (as cuda-pathfinder does; the toolkit's files have no RUNPATH).
  echo "== cuda-pathfinder is not installed: a stand-in searches sys.path for nvidia/cu13/lib"
  mkdir -p "$site/cuda/pathfinder"
  cat > "$site/cuda/pathfinder/__init__.py" <<'PY'
import ctypes, os, sys
from types import SimpleNamespace
_FILES = {"nvrtc": "libnvrtc.so.13", "cublasLt": "libcublasLt.so.13", "cublas": "libcublas.so.13",
          "nvJitLink": "libnvJitLink.so.13", "cusparse": "libcusparse.so.12", "cusolver": "libcusolver.so.12",
          "cufft": "libcufft.so.12"}
_NEEDS = {"cublas": ["cublasLt"], "cusparse": ["nvJitLink"], "cufft": ["nvJitLink"],
          "cusolver": ["nvJitLink", "cusparse", "cublasLt", "cublas"]}
def load_nvidia_dynamic_lib(name):
    for dep in _NEEDS.get(name, []):
        load_nvidia_dynamic_lib(dep)
    for p in sys.path:
        path = os.path.join(p, "nvidia", "cu13", "lib", _FILES[name])
        if os.path.exists(path):
            ctypes.CDLL(path, os.RTLD_NOW | os.RTLD_GLOBAL)
            return SimpleNamespace(abs_path=path, found_via="site-packages (stand-in)")
    raise RuntimeError(f"{_FILES[name]} is not in any nvidia/cu13/lib on sys.path")
PY
  touch "$site/cuda/__init__.py"
fi

export PIP_LAYOUT_WORK="$work" PYTHON
unset CUDA_PATH CUDA_HOME LD_LIBRARY_PATH
unshare -m bash -euo pipefail -s -- "${@:-tests/test_transfer.py tests/fft tests/linalg/test_solve.py -x -q}" <<EOS
mount --bind "$toolkit_lib" "\$PIP_LAYOUT_WORK/real"
for d in /usr/local/cuda*; do [ -L "\$d" ] || mount -t tmpfs none "\$d"; done
if [ -e /usr/local/cuda/lib64/libnvrtc.so.13 ]; then echo "the toolkit is still visible" >&2; exit 1; fi
echo "== python -m cuarray (toolkit hidden)"
"\$PYTHON" -m cuarray || echo "== python -m cuarray exited \$?"
echo "== show_config()"
"\$PYTHON" - <<'PY'
import contextlib, io, sys
import cuarray
out = io.StringIO()
with contextlib.redirect_stdout(out):
    cuarray.show_config()
print(out.getvalue(), end="")
rows = dict(line.split(" : ", 1) for line in out.getvalue().splitlines())
rows = {k.strip(): v for k, v in rows.items()}
bad = {k: rows.get(k) for k in ("NVRTC Path", "cuBLAS", "cuSOLVER", "cuFFT")
       if "/nvidia/cu13/lib/" not in rows.get(k, "") or "cuda-pathfinder" not in rows.get(k, "")}
if bad:
    sys.exit(f"not found in the pip layout through cuda-pathfinder: {bad}")
print("== each library was found in the pip layout through cuda-pathfinder")
PY
echo "== pytest \$*"
"\$PYTHON" -m pytest \$*
EOS
