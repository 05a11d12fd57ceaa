#!/usr/bin/env bash
# The replay page in a real browser (headless Chromium): after stepping with
# the keyboard, every hand shows as many cards as the engine's state holds, in
# the full view and in one seat's view. A page whose agents' names hold
# markup, scripts and dialogs (as if a record had slipped past the reader:
# HOSTILE_PAGE writes it) shows them as text, runs none of them and still
# steps. Skipped (exit code 77) where Chromium is not installed.
#   bash browser.sh CANASTA WORK_DIR HOSTILE_PAGE
set -euo pipefail
source "$(dirname "$0")/lib.sh"
hostile_page=$(realpath "$3")
setup "$1" "$2"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "skipped: no Chromium (Debian: apt-get install chromium)"
  exit 77
fi
# A page that opens a dialog hangs the headless browser: the timeout ends it.
browse() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" "$@" 2>/dev/null
}
for profile in classic two-player; do
  "$canasta" play --seed 3 --profile "$profile" --side0 heuristic --record "$profile.jsonl" >/dev/null
  "$canasta" show "$profile.jsonl" --html "$profile.html" >/dev/null
  players=$([[ $profile == classic ]] && echo 4 || echo 2)
  for view in all 1; do
    # Deal 2 (line 2) opened at step 3, then three presses of the right arrow and one of the left: step 5.
    dom=$(browse --virtual-time-budget=5000 --dump-dom \
      "file://$work/$profile.html#deal=1&step=3&view=$view&press=Right,Right,Right,Left")
    grep -q 'data-current-step="5"' <<<"$dom" || fail "$profile: the page did not step to 5"
    want=$("$canasta" show "$profile.jsonl" --line 2 --step 5 --no-color)
    for ((seat = 0; seat < players; ++seat)); do
      n=$(sed -n "s/^  seat $seat   \([0-9]*\) card.*/\1/p" <<<"$want")
      got=$(grep -o "data-seat=\"$seat\" data-count=\"[0-9]*\"" <<<"$dom" | grep -o '[0-9]*"$' | tr -d '"')
      [[ -n $n && $got == "$n" ]] || fail "$profile, view $view: seat $seat shows ${got:-no} cards, the engine holds $n"
    done
    if [[ $view != all ]]; then
      backs=$(grep -o 'class="card back"' <<<"$dom" | wc -l)
      [[ $backs -gt 0 ]] || fail "$profile: seat $view's view shows the other hands"
    fi
  done
done
"$hostile_page" classic.jsonl hostile.html
dom=$(browse --virtual-time-budget=5000 --dump-dom "file://$work/hostile.html#step=3&press=Right,Right") ||
  fail "the hostile page did not load to its end (a dialog held it?)"
grep -q 'data-current-step="5"' <<<"$dom" || fail "the hostile page did not step to 5"
if grep -q 'data-pwned' <<<"$dom"; then fail "a script from the agents' names ran"; fi
if grep -Eq '<(h1|a|img|iframe|svg)[^>]*(id="injected"|onerror|onload|srcdoc)' <<<"$dom"; then
  fail "markup from the agents' names became elements"
fi
grep -q '(&lt;img src=x onerror=' <<<"$dom" || fail "the agents' names are not shown as text"
browse --window-size=1400,950 --screenshot="$work/replay.png" "file://$work/classic.html#deal=1&step=40" >/dev/null
[[ $(stat -c %s replay.png) -gt 20000 ]] || fail "the screenshot is empty"
echo "browser: the replay page shows every hand as the engine holds it, and hostile names as text"
