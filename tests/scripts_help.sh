#!/usr/bin/env bash
# Every script in scripts/ answers --help with how to use it and exit 0, and
# does nothing else: no build, no install, no file written in the checkout.
#   bash scripts_help.sh SOURCE_DIR
set -euo pipefail
src=$(realpath "$1")
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
before=$(git -C "$src" status --porcelain 2>/dev/null || true)
n=0
for s in "$src"/scripts/*.sh "$src"/scripts/*.py; do
  case $(basename "$s") in args.sh | script_io.py) continue ;; esac  # sourced or imported, not run
  if [[ $s == *.py ]]; then
    out=$(cd /tmp && /usr/bin/python3 "$s" --help 2>&1) || fail "$(basename "$s") --help exited $?: $out"
    [[ $out == usage:* ]] || fail "$(basename "$s") --help: $(head -1 <<<"$out")"
  else
    out=$(cd /tmp && bash "$s" --help 2>&1) || fail "$(basename "$s") --help exited $?: $out"
    # The opening comment, as the script has it.
    first=$(grep -v '^#!' "$s" | sed -n '1s/^# \{0,1\}//p')
    [[ $(head -1 <<<"$out") == "$first" ]] || fail "$(basename "$s") --help: $(head -1 <<<"$out")"
  fi
  n=$((n + 1))
done
[[ $(git -C "$src" status --porcelain 2>/dev/null || true) == "$before" ]] || fail "--help changed the checkout"
echo "scripts: $n answer --help"
