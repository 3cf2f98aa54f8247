#!/usr/bin/env python3
"""docs/ is for people (issue 52): the pages are there, the records they
cite are in docs/records/.  Fails on a record (.json, .txt) directly in
docs/ but for the record format's schema, and on a relative link of a
page (docs/*.md, README.md) to a file that is not there.  Skips (77)
outside a git checkout: a release tarball carries some pages and two
records, not the rest."""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOCS = os.path.join(SRC, "docs")
PAGES_ONLY = {"record.schema.json"}  # the format's schema, read beside record.md
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def main():
    if not os.path.exists(os.path.join(SRC, ".git")):
        print("docs_links.py: SKIP: needs a git checkout's docs/ (a release tarball has a few of its files)")
        return 77
    failures = []
    for name in sorted(os.listdir(DOCS)):
        if name.endswith((".json", ".txt")) and name not in PAGES_ONLY:
            failures.append(f"docs/{name}: a record among the pages; bench/common.sh writes them to docs/records/")
    pages = [os.path.join("docs", n) for n in sorted(os.listdir(DOCS)) if n.endswith(".md")] + ["README.md"]
    for page in pages:
        with open(os.path.join(SRC, page), encoding="utf-8") as f:
            text = f.read()
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):  # http:, mailto:
                continue
            if not os.path.exists(os.path.join(SRC, os.path.dirname(page), target)):
                line = text.count("\n", 0, m.start()) + 1
                failures.append(f"{page}:{line}: links {target}, which is not there")
    for f in failures:
        print("FAIL: " + f)
    print(f"docs_links.py: {len(pages)} pages, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
