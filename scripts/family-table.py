#!/usr/bin/env python3
"""The family table of piece values (issue 35, item 3), one line per role.

The declared protocol of docs/RESULTS.md ("The family table, every variant
in one table"): for each variant of configs/variants, the engine at 1,500
nodes a move (with the variant's learned net where models/ ships one, the
classical evaluation otherwise) plays itself with the nnue loop's opening
settings, seeded per variant; the values come from two logistic fits of
those games (whole game; --officers middlegame), 200 bootstrap replicates.

  scripts/family-table.py play VARIANT [--games N] [WORKER FLAGS...]
      plays the variant's games into DIR/VARIANT-games. Chunks are seeded
      by their number, so machines given other chunks
      (--first-chunk C --chunks K) write together one data set: copy the
      chunks into one directory and fit. Run again to resume; --games more
      than the default extends a row with new games, the old ones kept.
  scripts/family-table.py fit VARIANT
      fits DIR/VARIANT-games: DIR/fit-VARIANT-{whole,middlegame}.json.
  scripts/family-table.py table [--phase whole|middlegame]
      prints the Markdown table of every variant fitted so far, each
      half-width in bold where it meets the issue's (0.15; the queen 0.4):
      the whole-game fit (the default), or the middlegame one (positions
      with at least half the start's officers).
  scripts/family-table.py plan [--margin M]
      prints, for every variant fitted so far, how many games would bring
      each piece's half-width to the issue's, projected from its fit as one
      over the square root of the games (the rows extended so far followed
      that rule), times M (default 1.1, for the noise of a bootstrap
      half-width), and the play line that gets them (or, where more games
      are played than the fit read, the fit to run again); then every other
      row with what to run first (fit, where its games are played; else
      play). A row whose worker is running on this machine says so instead.

DIR is --dir (default runs/family-table); the binary is $BOMBERZERO, else
bomberzero on PATH, else one built with `go build` into DIR.
"""
import json
import math
import os
import shutil
import signal
import subprocess
import sys

# Variant: (seed, net file or None, default games). The seeds are the
# declared runs' (docs/RESULTS.md); a new variant takes the next.
ROWS = {
    "fbgc": (5400, "models/fbgc.nnue", 20000),
    "fbgc-superpower": (5401, "models/fbgc-superpower.nnue", 20000),
    "hangars": (5402, None, 10000),
    "claustrophobia": (5403, None, 10000),
    "birds-ninjas": (5404, None, 10000),
    "fbgc-superknights": (5405, None, 10000),
    "fbgc-ninjapawns": (5406, None, 10000),
    "birds-ninjas-setup2": (5407, None, 10000),
    "birds-only": (5408, None, 10000),
    "birds-leaping": (5409, None, 10000),
}
NODES = 1500
ORDER = "JNGMDBFRQ"  # columns: the weakest pieces first, as they usually come
LIMIT = {"Q": 0.4}  # the half-widths; every other piece 0.15
CHUNK_GAMES = 10  # games a chunk: the nnue worker's default, which play keeps


def limit(piece):
    """The issue's largest half-width for piece, in pawns."""
    return LIMIT.get(piece, 0.15)


def die(msg):
    print("family-table: " + msg, file=sys.stderr)
    sys.exit(2)


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary(out_dir):
    if os.environ.get("BOMBERZERO"):
        return os.environ["BOMBERZERO"]
    found = shutil.which("bomberzero")
    if found:
        return found
    path = os.path.join(out_dir, "bomberzero")
    if not os.path.exists(path):
        print("family-table: building %s" % path, file=sys.stderr)
        subprocess.run(["go", "build", "-o", os.path.abspath(path), "./cmd/bomberzero"], cwd=repo_root(), check=True)
    return path


def player(variant):
    _, net, _ = ROWS[variant]
    spec = "engine:nodes=%d" % NODES
    return spec + (":eval=" + net if net else "")


def row(variant):
    if variant not in ROWS:
        die("unknown variant %r: want one of %s" % (variant, ", ".join(ROWS)))
    return ROWS[variant]


def take_flag(args, name, default, what):
    """Returns the value of flag name in args (default without it) and args without it."""
    if name not in args:
        return default, args
    i = args.index(name)
    if i + 1 >= len(args):
        die("%s needs %s" % (name, what))
    return args[i + 1], args[:i] + args[i + 2:]


def play(out_dir, variant, args):
    seed, net, games = row(variant)
    games, args = take_flag(args, "--games", games, "a number")
    cmd = [binary(out_dir), "nnue", "worker", "--variant", variant, "--seed", str(seed), "--generation", "1",
           "--games", str(games), "--nodes", str(NODES), "--out", os.path.join(out_dir, variant + "-games")]
    if net:
        cmd += ["--net", os.path.join(repo_root(), net)]
    return subprocess.run(cmd + args).returncode


def fit(out_dir, variant):
    row(variant)
    data = os.path.join(out_dir, variant + "-games")
    if not os.path.isdir(data):
        die("%s: no games; run: scripts/family-table.py play %s" % (data, variant))
    for phase, extra in zip(PHASES, ([], ["--officers", "middlegame"])):
        out = os.path.join(out_dir, "fit-%s-%s.json" % (variant, phase))
        cmd = [binary(out_dir), "values", "--engine-data", data, "--engine-player", player(variant), "--variant", variant,
               "--fits", "logistic", "--bootstrap", "200", "--seed", "1", "--json", "--quiet"] + extra
        with open(out + ".tmp", "w") as f:
            rc = subprocess.run(cmd, stdout=f).returncode
        if rc != 0:
            os.remove(out + ".tmp")
            return rc
        os.replace(out + ".tmp", out)
        print("family-table: wrote %s" % out, file=sys.stderr)
    return 0


PHASES = ("whole", "middlegame")


def fitted_rows(out_dir, required=True, phase="whole"):
    """The fit of phase (whole or middlegame) of every variant fitted in
    out_dir, in ROWS order: (variant, games with positions, decisive games,
    pawn coefficient or None, {piece: (value, half-width)}). With required,
    no fit at all is an error."""
    rows = []
    for variant in ROWS:
        path = os.path.join(out_dir, "fit-%s-%s.json" % (variant, phase))
        if not os.path.exists(path):
            continue
        with open(path) as f:
            d = json.load(f)
        fits = d.get("fits") or []
        if not fits:
            print("family-table: %s: no fit (%s)" % (path, "; ".join(d.get("warnings") or [])), file=sys.stderr)
            continue
        f = fits[0]
        cells, pawn = {}, None
        for p in f["pieces"]:
            if p["piece"] == "P" and p.get("coef"):
                pawn = p["coef"]["point"]
            x = p.get("value")
            if not x or p["piece"] in ("P", "K"):
                continue
            cells[p["piece"]] = (x["point"], (x["hi"] - x["lo"]) / 2)
        rows.append((variant, d["games"], f.get("decisive_games", 0), pawn, cells))
    if not rows and required:
        label = "whole-game" if phase == "whole" else phase
        die("no %s fits in %s; run play and fit first (plan lists what to run)" % (label, out_dir))
    return rows


def played_games(out_dir, variant):
    """Games whose chunks are in the variant's data: chunk files times
    CHUNK_GAMES (as play runs the worker)."""
    data = os.path.join(out_dir, variant + "-games")
    if not os.path.isdir(data):
        return None
    return CHUNK_GAMES * len(chunk_files(data))


def chunk_files(data):
    """The paths of the chunks (chunk-N.parquet) in the directory data."""
    return [os.path.join(data, n) for n in os.listdir(data) if n.startswith("chunk-") and n.endswith(".parquet")]


def newest_chunk(out_dir, variant):
    """The modification time of the variant's newest chunk (0 with none)."""
    data = os.path.join(out_dir, variant + "-games")
    if not os.path.isdir(data):
        return 0.0
    return max((os.stat(p).st_mtime for p in chunk_files(data)), default=0.0)


def fit_time(out_dir, variant):
    """The modification time of the variant's whole-game fit."""
    return os.stat(os.path.join(out_dir, "fit-%s-whole.json" % variant)).st_mtime


def writing_dirs():
    """The directories that workers on this machine are writing games to:
    the --out of every process whose command line has `nnue worker`, as a
    real path (read once from /proc; empty where there is none)."""
    dirs = set()
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return dirs
    for pid in pids:
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read(1 << 16).decode("utf-8", "replace").split("\0")
            cwd = os.readlink("/proc/%s/cwd" % pid)
        except OSError:
            continue
        if "nnue" not in argv or "worker" not in argv or "--out" not in argv:
            continue
        i = argv.index("--out")
        if i + 1 < len(argv):
            dirs.add(os.path.realpath(os.path.join(cwd, argv[i + 1])))
    return dirs


def plan(out_dir, args):
    margin, args = take_flag(args, "--margin", "1.1", "a number")
    try:
        margin = float(margin)
    except ValueError:
        margin = float("nan")
    if args or not margin >= 1:
        die("usage: family-table.py [--dir DIR] plan [--margin M], M a number, at least 1")
    print("Games to bring every half-width to the issue's (0.15; the queen 0.4), projected from each row's")
    print("whole-game fit as one over the square root of the games, times the margin %.2f:" % margin)
    print()
    print("| variant | games with positions | widest against its limit | games needed (with positions) | play |")
    print("|---|---|---|---|---|")
    rows = fitted_rows(out_dir, required=False)
    writing = writing_dirs()

    def playing(variant):
        return os.path.realpath(os.path.join(out_dir, variant + "-games")) in writing

    for variant, games, _, _, cells in rows:
        played = played_games(out_dir, variant) or games
        if playing(variant):
            print("| %s | %s | playing: %s games so far | - | fit when its play ends |" % (
                variant, format(games, ","), format(played, ",")))
            continue
        if played > games * 1.01 + CHUNK_GAMES and newest_chunk(out_dir, variant) > fit_time(out_dir, variant):
            # Chunks written since the fit: its projection is out of date.
            # (More chunks than games with positions alone is no sign: a
            # game can end before its first sampled ply.)
            print("| %s | %s | %s games played since the fit | - | `scripts/family-table.py fit %s` |" % (
                variant, format(games, ","), format(played, ","), variant))
            continue
        if not cells:
            print("| %s | %s | no piece fitted | - | - |" % (variant, format(games, ",")))
            continue
        # The piece that needs the most games: n * (half / limit)^2.
        need, piece, half = max((games * (h / limit(p)) ** 2, p, h) for p, (_, h) in cells.items())
        widest = "%s %.2f / %.2f" % (piece, half, limit(piece))
        if need <= games:
            print("| %s | %s | %s | met | - |" % (variant, format(games, ","), widest))
            continue
        need = int(math.ceil(need * margin))
        # --games counts games played; keep the share of them that carry
        # positions (a game can end before the sampled plies).
        ask = int(math.ceil(need * max(played, games) / games / 1000.0)) * 1000
        print("| %s | %s | %s | %s | `scripts/family-table.py play %s --games %d` |" % (
            variant, format(games, ","), widest, format(need, ","), variant, ask))
    # The rows with no fit here: what to run first.
    fitted = set(r[0] for r in rows)
    for variant in ROWS:
        if variant in fitted:
            continue
        played = played_games(out_dir, variant)
        if played and playing(variant):
            print("| %s | - | playing: %s games so far | - | fit when its play ends |" % (
                variant, format(played, ",")))
        elif played:
            print("| %s | - | not fitted: %s games played | - | `scripts/family-table.py fit %s` |" % (
                variant, format(played, ","), variant))
        else:
            print("| %s | - | no games here | - | `scripts/family-table.py play %s` |" % (variant, variant))
    return 0


def table(out_dir, args):
    phase, args = take_flag(args, "--phase", "whole", "whole or middlegame")
    if args or phase not in PHASES:
        die("usage: family-table.py [--dir DIR] table [--phase whole|middlegame]")
    rows = fitted_rows(out_dir, phase=phase)
    seen = set(p for row in rows for p in row[4])
    cols = [c for c in ORDER if c in seen] + sorted(seen - set(ORDER))
    print("| variant | player | games (decisive) | pawn (logits) | " + " | ".join(cols) + " |")
    print("|---|---|---|---|" + "---|" * len(cols))
    for variant, games, decisive, pawn, cells in rows:
        out = []
        for c in cols:
            if c not in cells:
                out.append("-")
                continue
            point, half = cells[c]
            mark = "**" if half <= limit(c) else ""
            out.append("%.2f ±%s%.2f%s" % (point, mark, half, mark))
        pawn_s = "%.3f" % pawn if pawn is not None else "-"
        print("| %s | `%s` | %s (%s) | %s | %s |" % (variant, player(variant), format(games, ","), format(decisive, ","), pawn_s, " | ".join(out)))
    return 0


def main(argv):
    out_dir, argv = take_flag(argv, "--dir", "runs/family-table", "a directory")
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    os.makedirs(out_dir, exist_ok=True)
    role, rest = argv[0], argv[1:]
    if role == "play" and rest:
        return play(out_dir, rest[0], rest[1:])
    if role == "fit" and len(rest) == 1:
        return fit(out_dir, rest[0])
    if role == "table":
        return table(out_dir, rest)
    if role == "plan":
        return plan(out_dir, rest)
    die("usage: family-table.py [--dir DIR] play VARIANT [--games N] [WORKER FLAGS] | fit VARIANT | table [--phase P] | plan [--margin M]")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `table | head` ends quietly
    sys.exit(main(sys.argv[1:]))
