#!/usr/bin/env bash
# install-orca48.sh - a second screen-reader stack beside Debian 12's: Orca 48.1 and at-spi2-core / libatspi 2.56
# from Debian bookworm-backports, unpacked into a project-local prefix (issue 39; Specs/decisions.md D-ORCA48-1).
#
#   Tools/install-orca48.sh            # install into .build/orca48 (fast no-op when already there)
#   Tools/install-orca48.sh --check    # only say whether it is there (exit 0) or what is missing (exit 1)
#   Tools/install-orca48.sh --env      # print the stack's environment (sh syntax) once installed
#
# Nothing on the system changes: no apt source is added to /etc/apt, nothing is installed with dpkg -i. apt-get runs
# with a private sources list (bookworm-backports only, signed by Debian's archive key that every Debian system has),
# a private package-list and cache folder, and only *downloads* these packages; dpkg -x unpacks them under the prefix:
#   orca               48.1      /usr/bin/orca and its Python modules (pure Python)
#   at-spi2-core       2.56      at-spi-bus-launcher, at-spi2-registryd
#   libatspi2.0-0      2.56      libatspi.so.0 (Orca 48 needs >= 2.50; its device model is in 2.55+)
#   gir1.2-atspi-2.0   2.56      Atspi-2.0.typelib
#   at-spi2-common     2.56      the bus configuration and schemas the 2.56 daemons ship with
# Orca 48's other dependencies (python3-gi, gir1.2-gtk-3.0, gir1.2-wnck-3.0, speech-dispatcher, python3-brlapi,
# python3-louis, ...) are the same Debian 12 packages Orca 43 uses (Tools/install-deps.sh installs them).
#
# Orca's launcher hard-codes /usr/lib/python3/dist-packages in front of sys.path, which would load the system's
# Orca 43 modules: the prefix gets its own bin/orca with that path (and Orca's data folder) pointing into the prefix.
#
# Environment: AXSERVER_ORCA48_PREFIX (default <repo>/.build/orca48), AXSERVER_ORCA48_SUITE (default
# bookworm-backports), AXSERVER_ORCA48_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${AXSERVER_ORCA48_PREFIX:-$ROOT_DIR/.build/orca48}
SUITE=${AXSERVER_ORCA48_SUITE:-bookworm-backports}
MIRROR=${AXSERVER_ORCA48_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
PACKAGES=(orca at-spi2-core libatspi2.0-0 gir1.2-atspi-2.0 at-spi2-common)
ARCH_LIB=usr/lib/x86_64-linux-gnu
STAMP=$PREFIX/READY

say() { echo "install-orca48: $*" >&2; }
die() { say "$*"; exit 1; }

# What a usable prefix holds; prints the first missing piece.
missing_piece() {
    local f
    for f in "$STAMP" "$PREFIX/bin/orca" "$PREFIX/root/usr/libexec/at-spi-bus-launcher" \
        "$PREFIX/root/usr/libexec/at-spi2-registryd" "$PREFIX/root/$ARCH_LIB/libatspi.so.0" \
        "$PREFIX/root/$ARCH_LIB/girepository-1.0/Atspi-2.0.typelib" \
        "$PREFIX/root/usr/lib/python3/dist-packages/orca/orca.py" "$PREFIX/env.sh"; do
        [ -e "$f" ] || { echo "$f"; return 0; }
    done
    return 1
}

print_env() {
    cat "$PREFIX/env.sh"
}

case "${1:-}" in
    --check)
        if piece=$(missing_piece); then
            die "the Orca 48 stack is not installed: $piece is missing (run Tools/install-orca48.sh)"
        fi
        say "present in $PREFIX: $(cat "$STAMP")"
        exit 0 ;;
    --env)
        if piece=$(missing_piece); then
            die "the Orca 48 stack is not installed: $piece is missing (run Tools/install-orca48.sh)"
        fi
        print_env
        exit 0 ;;
    "") ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

if ! missing_piece >/dev/null; then
    say "present in $PREFIX: $(cat "$STAMP")"
    exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found: the Orca 48 stack comes from Debian bookworm-backports"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (apt-get install dpkg)"
[ -r "$KEYRING" ] || die "$KEYRING not found (apt-get install debian-archive-keyring)"
for dep in python3 /usr/lib/python3/dist-packages/gi; do
    [ -e "$dep" ] || command -v "$dep" >/dev/null \
        || die "$dep is missing: Orca 48 runs on the system's python3-gi (Tools/install-deps.sh installs it)"
done

started=$(date +%s)
work=$PREFIX.partial
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/debs" "$work/root" "$work/bin"
echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" > "$work/apt/sources.list"
APT=(apt-get -q -o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
     -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o "APT::Sandbox::User=$(id -un)")
if ! "${APT[@]}" update >"$work/apt/update.log" 2>&1; then
    die "apt-get update of $SUITE ($MIRROR) failed: $(tail -3 "$work/apt/update.log" | tr '\n' ' ')(no network, or" \
        "the mirror refused; set AXSERVER_ORCA48_MIRROR to a reachable Debian mirror)"
fi
specs=()
for p in "${PACKAGES[@]}"; do specs+=("$p/$SUITE"); done
if ! (cd "$work/debs" && "${APT[@]}" download "${specs[@]}") >"$work/apt/download.log" 2>&1; then
    die "apt-get download ${specs[*]} failed: $(grep -E '^(E|W):' "$work/apt/download.log" | head -3 | tr '\n' ' ')"
fi
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/root" || die "dpkg-deb -x $deb failed"; done

orca_version=$(dpkg-deb -f "$work"/debs/orca_*.deb Version)
atspi_version=$(dpkg-deb -f "$work"/debs/libatspi2.0-0_*.deb Version)
case "$orca_version" in 48.*) ;; *) die "$SUITE has orca $orca_version, not 48.x (set AXSERVER_ORCA48_SUITE)" ;; esac
case "$atspi_version" in 2.5[5-9]*) ;; *) die "$SUITE has libatspi $atspi_version, not 2.55 or later" ;; esac

pkgdir=$PREFIX/root/usr/lib/python3/dist-packages
sed -e "s#'/usr/lib/python3/dist-packages'#'$pkgdir'#" -e "s#sys.prefix = '/usr'#sys.prefix = '$PREFIX/root/usr'#" \
    "$work/root/usr/bin/orca" > "$work/bin/orca"
grep -qF "$pkgdir" "$work/bin/orca" || die "Orca 48's launcher changed: cannot point its sys.path at the prefix"
chmod 755 "$work/bin/orca"
platform=$work/root/usr/lib/python3/dist-packages/orca/orca_platform.py
sed -i -e "s#'/usr'#'$PREFIX/root/usr'#g" "$platform"

lib=$PREFIX/root/$ARCH_LIB
cat > "$work/env.sh" <<EOF
# The Orca 48 / at-spi2-core 2.56 stack of Tools/install-orca48.sh (orca $orca_version, libatspi $atspi_version).
export AXSERVER_ORCA48_PREFIX='$PREFIX'
export AXSERVER_ORCA48_BIN='$PREFIX/bin/orca'
export AXSERVER_ATSPI_ROOT='$PREFIX/root'
export LD_LIBRARY_PATH='$lib'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export GI_TYPELIB_PATH='$lib/girepository-1.0'\${GI_TYPELIB_PATH:+:\$GI_TYPELIB_PATH}
export PYTHONPATH='$pkgdir'\${PYTHONPATH:+:\$PYTHONPATH}
export XDG_DATA_DIRS='$PREFIX/root/usr/share':\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
EOF
echo "orca $orca_version libatspi $atspi_version suite $SUITE" > "$work/READY"
rm -rf "$work/apt/cache" "$work/debs"
rm -rf "$PREFIX"
mv "$work" "$PREFIX"
piece=$(missing_piece) && die "installed, but $piece is missing"
say "installed in $PREFIX in $(( $(date +%s) - started )) s ($(du -sh "$PREFIX" | cut -f1)): $(cat "$STAMP")"
