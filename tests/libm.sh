#!/bin/sh
# SPDX-License-Identifier: MIT
# The core calls no libm function whose result may differ between C
# libraries or CPUs (sin, atan2, pow, exp, ...): the simulation path uses
# src/core/pmath.c instead, so a trajectory is the same bits on every IEEE
# machine. sqrt, floor, fabs, fmin and the like are exact and allowed.
#   libm.sh LIBSTEER.a
set -eu
lib="$1"
inexact='^(a?(sin|cos|tan)h?|atan2|sincos|exp|exp2|exp10|expm1|log|log2|log10|log1p|logb|pow|pow10|cbrt|hypot'
inexact="$inexact|erfc?|l?gamma|tgamma|j[01n]|y[01n])[fl]?\$"
# nm must list the library's undefined symbols: a missing file, a missing
# nm or LTO bytecode would otherwise list nothing and pass
listing=$(nm -u "$lib") || exit 1
undefined=$(echo "$listing" | awk '{ print $NF }' | sed 's/@.*//')
if ! echo "$undefined" | grep -qx 'qsort'; then
    echo "libm: nm lists no call of qsort (which the core makes) in $lib: cannot check it"
    exit 1
fi
found=$(echo "$undefined" | grep -E "$inexact" | sort -u || true)
if [ -n "$found" ]; then
    echo "the core calls libm functions that are not the same bits everywhere (use src/core/pmath.h):"
    echo "$found"
    exit 1
fi
echo "libm: the core calls only exact libm functions"
