#!/usr/bin/env bash
# The front door and the profiler use the public header only.
#
#   public_api_only.sh SOURCE_DIR
#
# src/cli/ may include its own files, lockstep.h and system headers, nothing
# else of src/; src/prof/ may include the VM's observer interface (it is an
# observer) but no file of src/api/. Prints each offending #include and
# exits 1 when there is one.
set -u
src="$1/src"
fail=0
for f in "$src"/cli/*.[ch]; do
  while IFS= read -r line; do
    echo "$f: $line (src/cli/ uses lockstep.h and its own files only)"; fail=1
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | grep -E '"[^"]*/[^"]*"')
done
for f in "$src"/prof/*.[ch]; do
  while IFS= read -r line; do
    echo "$f: $line (src/prof/ includes no file of src/api/)"; fail=1
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | grep -E '"([^"]*/)?api/|"api\.h"')
done
# and the rule itself must see the files it judges
ls "$src"/cli/main.c "$src"/prof/prof.c > /dev/null || fail=1
exit $fail
