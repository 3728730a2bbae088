#!/usr/bin/env bash
# Installs the Debian packages wavefront builds against (see CMakeLists.txt). Idempotent:
# prints nothing and exits 0 when everything is present; otherwise installs only what is
# missing (apt-get, through sudo when not root) and prints one line per package installed.
# Exits non-zero with a message on stderr when it cannot. No third-party code is vendored.
set -euo pipefail

readonly PACKAGES=(
  cmake g++ make       # toolchain
  nlohmann-json3-dev   # scene files
  libstb-dev           # PNG read/write, Radiance HDR read (io/image_stb.cpp)
  libtinyexr-dev       # OpenEXR writing (io/image_exr.cpp)
  libopenexr-dev       # OpenEXR reading, every compression incl. DWAB (io/image_exr.cpp; environment maps)
  zlib1g-dev           # tinyexr's ZIP compression (Debian builds it without miniz)
  libtinyobjloader-dev # OBJ meshes (io/mesh_obj.cpp)
  libtinygltf-dev      # glTF meshes (io/mesh_gltf.cpp)
  libgtest-dev         # tests
  clang                # CI: sanitizer build and libFuzzer targets (.ci/run, fuzz/)
  libclang-rt-dev      # clang's sanitizer and libFuzzer runtimes (only recommended by clang)
)

die() { echo "install-deps: $*" >&2; exit 1; }

command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian-based systems only"

is_installed() {
  local status
  status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
  [[ "$status" == *" installed" ]]
}

missing=()
for pkg in "${PACKAGES[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done
if (( ${#missing[@]} == 0 )); then exit 0; fi

if (( EUID == 0 )); then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  die "missing packages: ${missing[*]}; run as root or install sudo"
fi

log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT

run_apt() {
  if ! ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "'apt-get $*' failed"
  fi
}

run_apt update -qq
run_apt install -y -qq --no-install-recommends "${missing[@]}"

for pkg in "${missing[@]}"; do
  is_installed "$pkg" || die "$pkg is still not installed after apt-get install"
  echo "installed $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
done
