# Shared by the command-line test scripts: `setup CANASTA WORK_DIR` sets
# $canasta and $work, makes the work directory afresh and enters it.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
setup() {
  canasta=$(realpath "$1")
  work=$2
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
}
