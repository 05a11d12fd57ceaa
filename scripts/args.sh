# Sourced first by every script here. `bash scripts/NAME.sh --help` (or -h)
# prints the script's opening comment, which says how to use it, and exits;
# `whole NAME VALUE [LEAST]` stops the script (exit 2) unless VALUE is a
# whole number of at least LEAST (default 1).
if [[ ${1:-} == --help || ${1:-} == -h ]]; then
  awk 'NR == 1 && /^#!/ { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
  exit 0
fi
whole() {
  if [[ ! $2 =~ ^[0-9]+$ ]] || ((10#$2 < ${3:-1})); then
    echo "$(basename "$0"): $1 is a whole number of at least ${3:-1}, not '$2'" >&2
    exit 2
  fi
}
