#!/usr/bin/env bash
# Builds axserver, axquery and axdriver (release) and installs them with shell completions and man pages.
#   Tools/install.sh [--prefix DIR]        (default prefix: ~/.local)
# Installs:
#   PREFIX/bin/axserver, PREFIX/bin/axquery, PREFIX/bin/axdriver
#   PREFIX/share/bash-completion/completions/{axserver,axquery,axdriver}
#   PREFIX/share/zsh/site-functions/_{axserver,axquery,axdriver}
#   PREFIX/share/fish/vendor_completions.d/{axserver,axquery,axdriver}.fish
#   PREFIX/share/man/man1/*.1   (ArgumentParser's generate-manual plugin; without it, pages made from --help)
#   PREFIX/share/axserver/Specs/conformance   (the cases `axserver conformance Specs/conformance` finds anywhere)
#   PREFIX/share/axserver/python/axclient, PREFIX/share/axserver/Tools/a11y-stack.sh   (for `axquery listen`)
# Installs missing Debian packages first (Tools/install-deps.sh). Prints what to add to PATH when PREFIX/bin is
# not on it.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="$HOME/.local"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="${2:?--prefix needs a directory}"; shift 2 ;;
    --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (usage: Tools/install.sh [--prefix DIR])" >&2; exit 64 ;;
  esac
done
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
Tools/install-deps.sh
export PATH=/opt/swift/usr/bin:$PATH

swift build -c release --product axserver
swift build -c release --product axquery
swift build -c release --product axdriver
BUILT="$(swift build -c release --show-bin-path)"

install -d "$PREFIX/bin" "$PREFIX/share/bash-completion/completions" "$PREFIX/share/zsh/site-functions" \
  "$PREFIX/share/fish/vendor_completions.d" "$PREFIX/share/man/man1"
for tool in axserver axquery axdriver; do
  install -m 0755 "$BUILT/$tool" "$PREFIX/bin/$tool"
  "$BUILT/$tool" --generate-completion-script bash > "$PREFIX/share/bash-completion/completions/$tool"
  "$BUILT/$tool" --generate-completion-script zsh > "$PREFIX/share/zsh/site-functions/_$tool"
  "$BUILT/$tool" --generate-completion-script fish > "$PREFIX/share/fish/vendor_completions.d/$tool.fish"
done

install -d "$PREFIX/share/axserver/Specs"
rm -rf "$PREFIX/share/axserver/Specs/conformance"
cp -R Specs/conformance "$PREFIX/share/axserver/Specs/conformance"
install -d "$PREFIX/share/axserver/python" "$PREFIX/share/axserver/Tools"
rm -rf "$PREFIX/share/axserver/python/axclient"
cp -R Sources/PythonClient/axclient "$PREFIX/share/axserver/python/axclient"
install -m 0755 Tools/a11y-stack.sh "$PREFIX/share/axserver/Tools/a11y-stack.sh"

# Man pages: ArgumentParser's generate-manual plugin (one page per command and subcommand) when it builds here;
# otherwise one page per tool assembled from its --help and each subcommand's --help.
MANTMP="$(mktemp -d)"
trap 'rm -rf "$MANTMP"' EXIT
if swift package --allow-writing-to-directory "$MANTMP" generate-manual --multi-page --output-directory "$MANTMP" \
     > "$MANTMP/plugin.log" 2>&1 && ls "$MANTMP"/*.1 > /dev/null 2>&1; then
  install -m 0644 "$MANTMP"/*.1 "$PREFIX/share/man/man1/"
  echo "man pages: from the generate-manual plugin" >&2
else
  echo "man pages: the generate-manual plugin did not run (see below); making them from --help" >&2
  tail -n 3 "$MANTMP/plugin.log" >&2 || true
  for tool in axserver axquery axdriver; do
    /usr/bin/python3 Tools/manpage_from_help.py "$BUILT/$tool" > "$PREFIX/share/man/man1/$tool.1"
  done
fi

echo "installed axserver, axquery and axdriver $("$PREFIX/bin/axquery" --version) in $PREFIX/bin" >&2
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "add it to PATH: export PATH=\"$PREFIX/bin:\$PATH\"" >&2 ;;
esac
