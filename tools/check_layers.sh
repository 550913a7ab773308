#!/usr/bin/env bash
# Fails when an include points from a lower layer to a higher one.
#
# The layers are the table in docs/architecture.md (rows "| N | `folder` |
# ..."): a file of a folder's component (the longest folder that contains it)
# may include headers of the same component or of a smaller layer number,
# nothing else. Test code (*_test.cc, test utilities, testdata/) is exempt.
#
#   bash tools/check_layers.sh [ROOT]    # ROOT: a checkout (default: this one)
# Prints one line per violation (file:line: include, the two layers) and exits
# 1 when there is any; exits 2 when the table cannot be read.
set -uo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root" || exit 2
table=docs/architecture.md
if [ ! -f "$table" ]; then
  echo "check_layers: $table not found in $(pwd)" >&2
  exit 2
fi

# "layer folder" pairs, longest folder first so that the first prefix match
# is the file's component.
layers=$(sed -nE 's/^\| *([0-9]+) *\| *`([^`]+)` *\|.*/\1 \2/p' "$table" |
         awk '{ print length($2), $0 }' | sort -k1,1nr -k3 | cut -d' ' -f2-)
if [ -z "$layers" ]; then
  echo "check_layers: no layer rows in $table" >&2
  exit 2
fi

# The sources under the table's top folders (lite, tools, tests, ...); the
# verdict is awk's exit status alone (grep finds no include in some files).
set +o pipefail
tops=$(echo "$layers" | awk '{ split($2, p, "/"); print p[1] }' | sort -u)
for top in $tops; do
  if [ -d "$top" ]; then
    find "$top" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \)
  fi
done | sort |
  grep -vE '(_test\.cc|test_util\.(h|cc)|_tester\.(h|cc)|test_helpers\.h|test_models\.(h|cc)|/testdata/)' |
  xargs -r grep -nH -E '^#include "[^"]+"' |
  awk -v layers="$layers" '
    BEGIN {
      n = split(layers, rows, "\n")
      for (i = 1; i <= n; ++i) { split(rows[i], f, " "); lay[i] = f[1]; dir[i] = f[2] }
    }
    function component(path,   i) {
      for (i = 1; i <= n; ++i)
        if (index(path, dir[i] "/") == 1) return i
      return 0
    }
    {
      # file:line:#include "header"
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2)
      line = rest; sub(/:.*/, "", line)
      header = rest; sub(/^[0-9]+:#include "/, "", header); sub(/".*/, "", header)
      from = component(file); to = component(header)
      if (from == 0 || to == 0 || from == to) next
      if (lay[to] < lay[from]) next
      printf "%s:%s: includes %s: %s (layer %d) may not include %s (layer %d)\n",
             file, line, header, dir[from], lay[from], dir[to], lay[to]
      bad = 1
    }
    END { exit bad }'
status=$?
if [ "$status" -ne 0 ]; then
  echo "check_layers: includes against the layers of $table (see its rule)" >&2
  exit 1
fi
echo "check_layers: every include points down ($table)"
