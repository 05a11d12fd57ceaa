"""Shared by the Python scripts here (imported, not run): the one-line error
they stop with, the CSV tables they read, and the images they write."""
import csv
import importlib
import os
import sys


def fail(message):
    """Stops the script: MESSAGE on one line of stderr, after the script's name, and exit 2."""
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    print(f"{name}: {message}", file=sys.stderr)
    sys.exit(2)


def optional(name):
    """The module NAME, or None where it is missing: a script says so once its arguments are
    read, so that --help and their checks need no module."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def read_table(path, columns, what):
    """The rows of the CSV file PATH (dicts of text) and its column names; stops unless it can
    be read, has the COLUMNS and at least one row. WHAT names the file wanted, as in
    "a deals.csv of canasta sim"."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            names = reader.fieldnames or []
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (csv.Error, UnicodeDecodeError) as e:
        fail(f"{path} is not a CSV ({e})")
    missing = [c for c in columns if c not in names]
    if missing:
        fail(f"{path} is not {what} (no column {missing[0]!r})")
    if not rows:
        fail(f"{path} has no rows (only its header)")
    return rows, names


def pyplot():
    """matplotlib's pyplot, drawing to files; stops with one line where matplotlib is missing
    (a Python other than Debian's /usr/bin/python3, say)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is missing (apt-get install python3-matplotlib; run /usr/bin/python3)")
    return plt


def image_format(out):
    """The format of the image OUT, from its extension (png without one); stops where
    matplotlib writes no such images. Check it before the work the image shows."""
    pyplot()
    from matplotlib.backend_bases import FigureCanvasBase

    ext = os.path.splitext(out)[1]
    fmt = ext[1:].lower() or "png"
    if fmt not in FigureCanvasBase.get_supported_filetypes():
        fail(f"{out}: matplotlib writes no {ext} images (.png, .pdf, .svg, ... instead)")
    return fmt


def save_figure(fig, out, **options):
    """Writes the figure to OUT whole or not at all (through a temporary name beside it), in the
    format of OUT's extension, making OUT's missing folders."""
    fmt = image_format(out)
    root, ext = os.path.splitext(out)
    tmp = f"{root}.tmp{ext}"
    try:
        if os.path.dirname(out):
            os.makedirs(os.path.dirname(out), exist_ok=True)
        fig.savefig(tmp, format=fmt, **options)
        os.replace(tmp, out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")
