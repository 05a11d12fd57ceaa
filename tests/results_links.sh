#!/usr/bin/env bash
# Every write-up (.md) and plot (.png) under results/ is linked from a
# Markdown file of the repository (results/README.md from the README),
# every relative link of those files points at a file that exists, and no
# source or doc names RULES.md, whose rules live in core/doc/rules.md.
#   bash results_links.sh SOURCE_DIR
set -euo pipefail
cd "$1"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# The repository's files with these patterns (outside a git checkout: found).
files() {
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -co --exclude-standard "$@"
  else
    local p args=()
    for p in "$@"; do args+=(-o -path "./${p#\*\*/}"); done
    find . -path './build*' -prune -o \( -false "${args[@]}" \) -print | sed 's|^\./||'
  fi
}
declare -A linked=()
broken=()
while IFS= read -r md; do
  dir=$(dirname "$md")
  # [text](target) and [text](target#anchor), relative targets only.
  while IFS= read -r target; do
    target=${target%%#*}
    [[ -z $target || $target == *://* || $target == mailto:* ]] && continue
    path=$(realpath -m --relative-to=. "$dir/$target")
    [[ -e $path ]] || broken+=("$md -> $target")
    [[ $path != "$md" ]] && linked[$path]=1
  done < <(grep -oE '\]\([^) ]+\)' "$md" | sed -E 's/^\]\(//; s/\)$//')
done < <(files '*.md' | grep -v '^build')
((${#broken[@]} == 0)) || fail "links to files that do not exist: ${broken[*]}"
unlinked=()
while IFS= read -r f; do
  [[ -n ${linked[$f]:-} ]] || unlinked+=("$f")
done < <(files 'results/*.md' 'results/*.png')
((${#unlinked[@]} == 0)) || fail "results linked from nowhere: ${unlinked[*]}"
stale=$(files '*.md' '*.cpp' '*.h' '*.py' '*.sh' '*.txt' | grep -v -e '^build' -e '^tests/results_links.sh$' | xargs grep -l 'RULES\.md' 2>/dev/null || true)
[[ -z $stale ]] || fail "RULES.md named (the rules are core/doc/rules.md): $stale"
echo "results: every write-up and plot is linked, every relative link resolves, no RULES.md"
