#!/usr/bin/env bash
# Builds the API reference (Doxygen, docs/api/Doxyfile) into DIR/html (default build/docs) and
# fails when Doxygen warns about a public header (a broken link or tag in a comment, say): the
# warnings are printed. CTest runs it as docs.api_reference.
#
#   scripts/docs.sh [DIR]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"
out=$(realpath -m "${1:-$DASH_ROOT/build/docs}")
if ! command -v doxygen >/dev/null; then
  echo "docs.sh: doxygen is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
mkdir -p "$out"
rm -rf "$out/html"
cd "$DASH_ROOT"
# Doxygen starts the comment filter once per header: give it the interpreter itself, not a
# launcher in front of it (a pyenv shim costs about 0.35 s a start: 45 s of this script's 46).
python=$(python3 -c 'import sys; print(sys.executable)')
# Each public header's group (by its folder: scripts/doxygen_filter.py).
mapfile -t headers < <(find dash/include dart/include include -name '*.h' \
                         -not -path '*/internal/*' -not -path '*/detail/*' | sort)
"$python" scripts/doxygen_filter.py --groups "${headers[@]}" >"$out/groups.dox"
{
  cat docs/api/Doxyfile
  echo "INPUT += $out/groups.dox"
  echo "INPUT_FILTER = \"$python scripts/doxygen_filter.py\""
  echo "OUTPUT_DIRECTORY = $out"
  echo "WARN_LOGFILE = $out/warnings.txt"
} | doxygen - >"$out/doxygen.log" 2>&1 || {
  cat "$out/doxygen.log" >&2
  echo "docs.sh: doxygen failed" >&2
  exit 1
}
if [[ -s $out/warnings.txt ]]; then
  cat "$out/warnings.txt" >&2
  echo "docs.sh: $(grep -c 'warning:' "$out/warnings.txt") Doxygen warnings (above)" >&2
  exit 1
fi
echo "docs.sh: wrote $out/html/index.html"
