#!/usr/bin/env bash
# Checks that a fresh Debian 12 would get every package the configured build found: for each
# package directory CMake recorded in BUILD_DIR/CMakeCache.txt (Qt6Charts_DIR, TBB_DIR, ...), the
# Debian package that owns it must be named in scripts/install-deps.sh or be a hard dependency
# (Depends, Pre-Depends; never Recommends, which --no-install-recommends leaves out) of one that
# is. Catches a package this machine happens to have and a newcomer's lacks.
#   scripts/check-deps.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cache=$build/CMakeCache.txt
[ -f "$cache" ] || { echo "check-deps: $cache not found; configure first" >&2; exit 2; }

mapfile -t listed < <(scripts/install-deps.sh --list)
# Everything the listed packages pull in without recommends.
mapfile -t pulled < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances "${listed[@]}" 2>/dev/null |
    sed -n 's/^\([^ <][^ :]*\)\(:amd64\)\{0,1\}$/\1/p; s/^ *\(Pre\)\{0,1\}Depends: \([^<][^ :]*\).*/\2/p' |
    sort -u)
declare -A have
for p in "${listed[@]}" "${pulled[@]}"; do have[$p]=1; done

missing=()
while IFS= read -r dir; do
    [ -d "$dir" ] || continue
    owner=$(dpkg -S "$dir" 2>/dev/null | head -n 1 | cut -d: -f1) || true
    [ -n "$owner" ] || continue
    for pkg in ${owner//,/ }; do
        [ -n "${have[$pkg]:-}" ] && continue 2
    done
    missing+=("$owner (for $dir)")
done < <(sed -n 's/^[A-Za-z0-9_]*_DIR:PATH=\(\/.*\)$/\1/p' "$cache" | sort -u)

if [ ${#missing[@]} -gt 0 ]; then
    echo "check-deps: the build uses packages that scripts/install-deps.sh would not install:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "check-deps: every package the build found is installed by scripts/install-deps.sh"
