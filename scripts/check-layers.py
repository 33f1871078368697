#!/usr/bin/env python3
"""Fails when a file in src/<layer>/ includes a header of a layer it does not link.

src/ is one include path for every layer, so the compiler accepts an include that points up a
layer. The allowed arrows come from their single home, the target_link_libraries lines of
src/*/CMakeLists.txt (and the .cmake files beside them): a layer may include its own headers and
those of every layer it links, directly or through another layer's PUBLIC links.

Also fails when a scenario names a flag: the command line (cli) turns flags into options, and
the layers below speak of options (a string literal holding "--name" in a source of
src/scenarios/ other than a test is refused; engine and tool flags live in engines/ and
drivers/, the one destroy command messages suggest in state/).

And it fails when a file outside src/providers/ includes a concrete provider's header: the other
layers reach a provider through providers/provider.h (MakeProvider and the Provider interface).

Prints one line per violation (file:line, the include or the flag, the layers) and exits 1;
exits 0 when every include points down and no scenario names a flag.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

TARGET = re.compile(r"add_(library|executable)\(\s*([\w-]+)([^)]*)\)", re.S)
SOURCE_LIST = re.compile(r"set\(\s*(\w+)([^)]*)\)", re.S)
LINK = re.compile(r"target_link_libraries\(\s*([\w-]+)([^)]*)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE"}
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
FLAG = re.compile(r"(?<![\w-])--[a-z]")
FLAGLESS_LAYERS = ["scenarios"]
CONCRETE_PROVIDERS = {"providers/local_provider.h", "providers/ssh_provider.h",
                      "providers/aws_provider.h"}
# Libraries outside src/ that test executables link; they pass their PUBLIC links on.
OTHER_BUILD_FILES = [ROOT / "tests" / "support" / "CMakeLists.txt"]


class Build:
    """What the CMake files say: each target's layer, its sources and its links."""

    def __init__(self):
        self.layer_of = {}  # library target -> layer (None for libraries outside src/)
        self.libraries_of = {}  # layer -> its library targets
        self.target_of_source = {}  # src/<layer>/[<folder>/]<file>.cc -> the targets compiling it
        self.links = {}  # target -> (public, private) linked targets
        for layer_dir in sorted(p for p in SRC.iterdir() if p.is_dir()):
            files = sorted(layer_dir.glob("CMakeLists.txt")) + sorted(layer_dir.glob("*.cmake"))
            for build_file in files:
                self.read(build_file, layer_dir)
        for build_file in OTHER_BUILD_FILES:
            if build_file.exists():
                self.read(build_file, None)

    def read(self, build_file, layer_dir):
        text = re.sub(r"#[^\n]*", "", build_file.read_text())
        # Lists of sources set once and named by several targets (set(client_sources a.cc ...)).
        for name, words in SOURCE_LIST.findall(text):
            text = text.replace("${" + name + "}", words)
        for kind, target, args in TARGET.findall(text):
            if kind == "library":
                self.layer_of[target] = layer_dir.name if layer_dir else None
                if layer_dir:
                    self.libraries_of.setdefault(layer_dir.name, []).append(target)
            for word in args.split():
                if layer_dir and word.endswith(".cc"):
                    # Relative to the build file's folder: a subfolder's source keeps its folder.
                    source = build_file.parent / word
                    self.target_of_source.setdefault(source, []).append(target)
        for target, args in LINK.findall(text):
            public, private = self.links.setdefault(target, (set(), set()))
            scope = public  # CMake's default (no keyword) propagates like PUBLIC
            for word in args.split():
                if word in KEYWORDS:
                    scope = private if word == "PRIVATE" else public
                else:
                    scope.add(word)

    def reach(self, target):
        """The layers a target may include: its own links, then their PUBLIC links onward."""
        public, private = self.links.get(target, (set(), set()))
        todo, seen, layers = list(public | private), set(), set()
        while todo:
            dep = todo.pop()
            if dep in seen or dep not in self.layer_of:
                continue  # third-party targets (fmt, OpenSSL ...) are not layers
            seen.add(dep)
            if self.layer_of[dep]:
                layers.add(self.layer_of[dep])
            todo.extend(self.links.get(dep, (set(), set()))[0])
        return layers

    def allowed(self, path, layer):
        """A source file may use what every target compiling it links (it must build in each); a
        header, what any of its layer's libraries does."""
        targets = self.target_of_source.get(path)
        if targets:
            return {layer} | set.intersection(*(self.reach(t) for t in targets))
        layers = {layer}
        for target in self.libraries_of.get(layer, []):
            layers |= self.reach(target)
        return layers


def main():
    build = Build()
    violations = 0
    for layer in sorted(build.libraries_of):
        for path in sorted((SRC / layer).rglob("*")):
            if path.suffix not in (".h", ".cc"):
                continue
            allowed = build.allowed(path, layer)
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = INCLUDE.match(line)
                if not m or m.group(1) not in build.libraries_of or m.group(1) in allowed:
                    continue  # not a layer's header (tests' "support/"), or an allowed one
                include = line.split('"')[1]
                linked = ", ".join(sorted(allowed - {layer})) or "nothing"
                print(f'{path.relative_to(ROOT)}:{number}: includes "{include}": layer {layer} '
                      f"does not link layer {m.group(1)} (it links: {linked})")
                violations += 1
    if violations:
        print(f"check-layers: {violations} include(s) point to a layer not linked "
              "(the arrows are the target_link_libraries lines of src/*/CMakeLists.txt)",
              file=sys.stderr)
    concrete = concrete_providers_included()
    if concrete:
        print(f"check-layers: {concrete} include(s) of a concrete provider outside src/providers/ "
              "(use providers/provider.h: MakeProvider and the Provider interface)",
              file=sys.stderr)
    flags = flags_named()
    if flags:
        print(f"check-layers: {flags} flag name(s) below the command line (cli adds the flag to "
              "an option's error; tool and engine flags live in drivers/ and engines/)",
              file=sys.stderr)
    return 1 if violations or concrete or flags else 0


def concrete_providers_included():
    """Prints each include of a concrete provider's header outside src/providers/; how many."""
    found = 0
    for root in (SRC, ROOT / "tests", ROOT / "bench", ROOT / "fuzz"):
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".h", ".cc") or (SRC / "providers") in path.parents:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r'^\s*#\s*include\s+"([^"]+)"', line)
                if m and m.group(1) in CONCRETE_PROVIDERS:
                    print(f'{path.relative_to(ROOT)}:{number}: includes "{m.group(1)}": a concrete '
                          "provider outside src/providers/")
                    found += 1
    return found


def flags_named():
    """Prints each string literal naming a flag in a scenario's sources; returns how many."""
    found = 0
    for layer in FLAGLESS_LAYERS:
        for path in sorted((SRC / layer).rglob("*")):
            if path.suffix not in (".h", ".cc") or path.stem.endswith("_test"):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                # The code before a // comment (a // inside a string literal starts none).
                masked = STRING_LITERAL.sub(lambda m: "s" * len(m.group()), line)
                code = line[:masked.find("//")] if "//" in masked else line
                if any(FLAG.search(s) for s in STRING_LITERAL.findall(code)):
                    print(f"{path.relative_to(ROOT)}:{number}: names a flag: {line.strip()}")
                    found += 1
    return found


if __name__ == "__main__":
    sys.exit(main())
