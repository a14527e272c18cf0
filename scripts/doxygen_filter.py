#!/usr/bin/env python3
"""Doxygen's INPUT_FILTER for the public headers (scripts/docs.sh): the headers document
themselves in plain // comments, which Doxygen does not read. Each comment line becomes a ///
line, so a comment block before a declaration documents it; the block that opens the file
documents the file; '#', '<', '>' and a leading '::' in comments are escaped (Doxygen reads
'#name' and '::name' as links and '<name>' as a tag). Lines are neither added nor removed, so
Doxygen's line numbers are the header's. With --groups, prints instead a Doxygen block per
header putting it into its concept's group (docs/api/mainpage.dox defines them).

usage: doxygen_filter.py HEADER              (prints the filtered header)
       doxygen_filter.py --groups HEADER...  (prints the groups' blocks)
"""
import re
import sys

# The group of a header by its path (first match), as docs/api/mainpage.dox defines them.
GROUPS = [
    (r"dart/include/", "dart"),
    (r"dash/bp/", "blocks"),
    (r"dash/ooc/", "ooc"),
    (r"dash/io/", "io"),
    (r"dash/halo/", "halo"),
    (r"dash/view/", "views"),
    (r"dash/algorithm/", "algorithms"),
    (r"dash/(pattern/|Pattern\.h|Dimensional\.h|TeamSpec\.h)", "patterns"),
    (r"dash/(array/|matrix/|iterator/|memory/|Array\.h|Matrix\.h|Shared\.h|Atomic\.h|Future\.h)",
     "containers"),
]
COMMENT = re.compile(r"^(\s*)//(?!/)\s?(.*)$")


def group_of(path):
    for pattern, group in GROUPS:
        if re.search(pattern, path):
            return group
    return "setup"


def escaped(text):
    text = text.replace("\\", "\\\\").replace("#", "\\#").replace("<", "\\<").replace(">", "\\>")
    return re.sub(r"(?<!\w)::", r"\\::", text)


def main():
    if sys.argv[1] == "--groups":
        for path in sys.argv[2:]:
            name = re.sub(r"^(dash/include|dart/include|include)/", "", path)
            print(f"/** \\file {name}\n    \\ingroup {group_of(path)} */")
        return
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    # The file's opening comment block: from the first line to the first line that is not a
    # comment.
    opening = 0
    while opening < len(lines) and COMMENT.match(lines[opening]):
        opening += 1
    out = []
    for i, line in enumerate(lines):
        m = COMMENT.match(line)
        if not m:
            out.append(line)
            continue
        text = f"{m.group(1)}/// {escaped(m.group(2))}"
        if i == opening - 1:  # the file block's last line makes it the file's
            text += " \\file"
        out.append(text)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
