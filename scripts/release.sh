#!/usr/bin/env bash
# Builds the release binaries of bomberzero: static, pure Go (CGO_ENABLED=0,
# so the network multiplies with its own Go/assembly kernels, no OpenBLAS),
# -trimpath, and stamped by the go command from git (-buildvcs=true) with the
# module version (the commit's tag, or a pseudo-version) and the commit,
# which `bomberzero version` prints. It builds the commit checked out (HEAD),
# from a clone: uncommitted changes are left out. One binary per platform goes into OUT
# (default dist/) as bomberzero-OS-ARCH[.exe], with SHA256SUMS beside them.
#
# usage: scripts/release.sh [OUT]     (make release)
# TARGETS="linux/amd64 ..." builds only those platforms.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
targets=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"}
GO=${GO:-go}

if ! rev=$(git rev-parse HEAD 2>/dev/null); then
  echo "release.sh: not a git checkout: the binaries could not carry their commit" >&2
  exit 1
fi
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release.sh: warning: uncommitted changes are left out: the binaries are commit $rev" >&2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/bomberzero-* "$out"/SHA256SUMS
# The go command stamps the commit only in a checkout whose .git is a
# folder (not in a git worktree, whose .git is a file): build from a fresh
# local clone of HEAD, which is also exactly the commit.
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git clone -q --no-checkout . "$src/bomberzero"
git -C "$src/bomberzero" checkout -q --detach "$rev"
# A platform that does not build is named at the end (the exit status says
# so too); the others are still built and summed.
failed=()
for t in $targets; do
  os=${t%/*} arch=${t#*/}
  name=bomberzero-$os-$arch
  [ "$os" = windows ] && name=$name.exe
  echo "release.sh: $out/$name"
  if ! (cd "$src/bomberzero" && CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -buildvcs=true -ldflags='-s -w' \
    -o "$out/$name" ./cmd/bomberzero); then
    failed+=("$t")
  fi
done
if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
if compgen -G "$out/bomberzero-*" >/dev/null; then
  (cd "$out" && "${sum[@]}" bomberzero-* > SHA256SUMS)
  echo "release.sh: $out/SHA256SUMS"
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "release.sh: FAILED to build ${failed[*]} (see the compiler's errors above)" >&2
  exit 1
fi
