#!/usr/bin/env bash
# Installs the Debian package on a fresh Debian 12, as a school's technician would, and checks it
# there. It builds the package (cmake --build BUILD_DIR --target package), makes a clean root with
# debootstrap (the base system only; made once, then copied), installs the package with
# `apt-get install ./lockstep_*.deb`, and checks, as an ordinary user with no display:
#   - apt pulled in runtime packages only, no -dev package;
#   - lockstep-cli run /usr/share/lockstep/scenarios/worked-example.json gives 16 s and 2.5;
#   - lockstep-cli lessons check passes, and --version names /usr/share/lockstep;
#   - lockstep --lesson reductions --screenshot renders offscreen (the PNG is kept);
#   - the menu entry, the metainfo, the icons and the man pages are where a desktop looks;
#   - apt-get purge takes every file away again.
# Needs root (debootstrap, chroot, mount) and Debian's package archive; about 1.5 GiB in
# CHECK_PACKAGE_WORK (default /var/tmp/lockstep-package-check). Takes 3 to 5 minutes, the first
# run a minute more for debootstrap.
#   scripts/check-package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
started=$SECONDS
say() { printf 'check-package: %s\n' "$*"; }
fail() { printf 'check-package: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || { echo "check-package: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
[ -f "$build/CPackConfig.cmake" ] || { echo "check-package: $build is not configured (cmake --preset default)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null

say "building the package"
cmake --build "$build" --target package >/dev/null
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
deb=$build/lockstep_${version}_amd64.deb
[ -f "$deb" ] || fail "no $deb after the build"

work=${CHECK_PACKAGE_WORK:-/var/tmp/lockstep-package-check}
base=$work/base
root=$work/root
log=$work/log
mkdir -p "$work"
: >"$log"
if [ ! -x "$base/bin/bash" ]; then
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    say "making a Debian 12 base root (once, about a minute)"
    rm -rf "$base"
    debootstrap --variant=minbase bookworm "$base" "$mirror" >>"$log" 2>&1 ||
        fail "debootstrap (log: $log)"
fi
unmount() { for m in dev/pts dev proc; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done; return 0; }
unmount
rm -rf "$root"
cp -a "$base" "$root"
trap unmount EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp "$deb" "$root/tmp/"

# As root in the fresh root, and as a student there (a home of their own, no display).
inside() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "$1"
}
student() {
    chroot --userspec=student:student "$root" /usr/bin/env -i HOME=/home/student LANG=C.UTF-8 \
        PATH=/usr/bin:/bin XDG_RUNTIME_DIR=/tmp/student-run bash -c "cd /home/student && $1"
}

say "apt-get install ./$(basename "$deb") on a fresh Debian 12"
before=$(inside "dpkg-query -W -f '\${Package}\n'" | sort)
inside "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/$(basename "$deb")" \
    >>"$log" 2>&1 || fail "apt-get install (log: $log)"
after=$(inside "dpkg-query -W -f '\${Package}\n'" | sort)
added=$(comm -13 <(echo "$before") <(echo "$after"))
say "apt added $(echo "$added" | wc -l) packages"
dev=$(echo "$added" | grep -E -- '-dev(:|$)' || true)
[ -z "$dev" ] || fail "the package pulled in development packages: $(echo $dev)"
inside "useradd --create-home student && install -d -o student -g student -m 700 /tmp/student-run"

say "lockstep-cli run /usr/share/lockstep/scenarios/worked-example.json"
out=$(student "lockstep-cli run /usr/share/lockstep/scenarios/worked-example.json") ||
    fail "lockstep-cli run: $out"
echo "$out" | grep -Eq 'total time +16 s' || fail "the worked example is not 16 s: $out"
echo "$out" | grep -Eq 'speedup +2\.500' || fail "the worked example's speedup is not 2.5: $out"

say "lockstep-cli lessons check"
out=$(student "lockstep-cli lessons check" 2>&1) || fail "lessons check: $out"
echo "$out" | grep -q '^ok: 13 lessons, .* in /usr/share/lockstep$' || fail "lessons check: $out"
out=$(student "lockstep-cli --version")
echo "$out" | grep -q "^resources: /usr/share/lockstep (found from the program's folder)$" ||
    fail "--version: $out"

say "lockstep --lesson reductions --screenshot (offscreen, no display)"
out=$(student "lockstep --lesson reductions --screenshot /home/student/reductions.png" 2>&1) ||
    fail "lockstep --screenshot: $out"
png=$root/home/student/reductions.png
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG from lockstep"
cp "$png" "$work/reductions.png"

for f in /usr/share/applications/org.example.Lockstep.desktop \
         /usr/share/metainfo/org.example.Lockstep.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/org.example.Lockstep.svg \
         /usr/share/icons/hicolor/48x48/apps/org.example.Lockstep.png \
         /usr/share/icons/hicolor/256x256/apps/org.example.Lockstep.png \
         /usr/share/man/man1/lockstep.1.gz /usr/share/man/man1/lockstep-cli.1.gz \
         /usr/share/doc/lockstep/copyright; do
    [ -f "$root$f" ] || fail "$f is not installed"
done

say "apt-get purge lockstep"
inside "DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq lockstep" >>"$log" 2>&1 || fail "purge (log: $log)"
[ ! -e "$root/usr/share/lockstep" ] && [ ! -e "$root/usr/bin/lockstep" ] || fail "purge left files behind"

unmount
rm -rf "$root"
say "passed in $((SECONDS - started)) s: $(basename "$deb") installs and works on a fresh Debian 12 (screenshot: $work/reductions.png)"
