#!/bin/sh
# SPDX-License-Identifier: MIT
# Format steer's C with the committed .clang-format.
#   tools/format.sh           format every file in place
#   tools/format.sh --check   list the files clang-format would change; exit 1 if any
# The files: *.c and *.h under src/, include/, tests/, bench/, demos/embed/,
# web/ and tools/*.c; third_party/ is left in its authors' form. The style
# depends on clang-format's major version, so the check wants the one the
# tree was formatted with (Debian 12's, 14: tools/setup.sh installs it) and
# skips (exit 77, meson's "skipped") when it is missing or another version.
set -eu
cd "$(dirname "$0")/.."
major=14
check=false
case "${1:-}" in
--check) check=true ;;
"") ;;
*) echo "usage: tools/format.sh [--check]" >&2; exit 2 ;;
esac
cf="${CLANG_FORMAT:-clang-format}"
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "format: $cf not found; install the clang-format package (tools/setup.sh does): skipped" >&2
    exit 77
fi
version=$("$cf" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != "$major" ]; then
    echo "format: $cf is version ${version:-unknown}, the tree is formatted with $major: skipped" >&2
    exit 77
fi
files=$(find src include tests bench demos/embed web -name third_party -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print
        ls tools/*.c 2>/dev/null || true)
files=$(printf '%s\n' $files | sort)
if ! $check; then
    printf '%s\n' $files | xargs "$cf" -i
    exit 0
fi
# One run over every file; each difference is a warning naming its file.
bad=$(printf '%s\n' $files | xargs "$cf" --dry-run 2>&1 |
      sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$bad" ]; then
    printf '%s\n' "$bad"
    echo "format: $(printf '%s\n' "$bad" | wc -l) file(s) differ from .clang-format; tools/format.sh formats them" >&2
    exit 1
fi
echo "format: every file is as .clang-format has it"
