#!/usr/bin/env python3
"""Writes dfbench(1) in roff from the built binary's help texts: `dfbench --help` and every
command's `--help` (subcommands of subcommands too), so the page never drifts from --help.

    scripts/make-man.py BUILD/dfbench OUT.1
"""
import re
import subprocess
import sys


def help_of(binary, words):
    r = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        sys.exit(f"make-man: {' '.join([binary, *words])} --help exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def subcommands(help_text):
    """The names under 'Subcommands:' in a CLI11 help text."""
    names, inside = [], False
    for line in help_text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            names.append(line.split()[0])
        elif inside and not line.strip() and names:
            break
    return names


def roff_text(text):
    """A literal block: backslashes escaped, lines that roff would read as requests kept as text."""
    out = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-man.py DFBENCH OUT")
    binary, out_path = sys.argv[1], sys.argv[2]
    version = subprocess.run([binary, "version"], capture_output=True, text=True,
                             timeout=30).stdout.split()
    version = version[1] if len(version) > 1 else "unknown"
    top = help_of(binary, [])
    summary = top.splitlines()[0].split(": ", 1)[-1]
    exit_codes = re.search(r"Exit codes: (.*)", top, re.S)

    page = [
        f'.TH DFBENCH 1 "" "dfbench {version}" "User Commands"',
        ".SH NAME",
        f"dfbench \\- {summary}",
        ".SH SYNOPSIS",
        ".B dfbench",
        ".I command",
        "[\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        ".nf",
        roff_text(top),
        ".fi",
        ".SH COMMANDS",
    ]
    queue = [[name] for name in subcommands(top)]
    while queue:
        words = queue.pop(0)
        text = help_of(binary, words)
        page += [f".SS {' '.join(words)}", ".nf", roff_text(text), ".fi"]
        queue[0:0] = [words + [name] for name in subcommands(text)]
    if exit_codes:
        page += [".SH EXIT STATUS", " ".join(exit_codes.group(1).split())]
    page += [
        ".SH FILES",
        ".TP",
        ".I ~/.dfbench",
        "Setups, their results and the engine cache (\\fBDFBENCH_HOME\\fR moves it).",
        ".SH SEE ALSO",
        "/usr/share/doc/dfbench/README.md and the pages under /usr/share/doc/dfbench/docs/.",
    ]
    with open(out_path, "w") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
