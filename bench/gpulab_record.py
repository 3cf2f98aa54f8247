"""A gpulab record read back in Python, in either form (docs/record.md):
the journal `gpulab run -o` writes (gpulab-record/2.x: a header line, one
line per point, a closing line), or a document (1.x: what `--format json`
prints, and what -o wrote before the journal).  Both come back as the one
document shape gpulab's own readers see: the header's members, then
"finished", "interrupted", "interruption" and "results".

As gpulab's reader does: a last line without its newline (cut off as it
was written) is dropped with a warning; a journal without its closing line
is a run that did not finish ("finished": False, "interrupted": True); a
closing line whose "points" is not the count of points, or whose
"interrupted" is not true or false, is refused.
"""
import json
import sys

JOURNAL = "gpulab-record/2"


def _journal_header(line):
    try:
        head = json.loads(line)
    except ValueError:
        return None
    schema = head.get("schema", "") if isinstance(head, dict) else ""
    if (schema == JOURNAL or schema.startswith(JOURNAL + ".")) and "results" not in head:
        return head
    return None


def _check_end(name, k, end, points):
    """The closing line as gpulab's one validator checks it
    (core/records/validate.c: record_check_end)."""
    at = f"{name}: line {k}, the closing entry"
    if not isinstance(end.get("interrupted"), bool):
        raise ValueError(f'{at}: "interrupted": expected true or false')
    if end.get("interrupted") != isinstance(end.get("interruption"), str):
        raise ValueError(f'{at}: "interrupted" and "interruption" disagree')
    n = end.get("points")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f'{at}: "points": expected a count')
    if n != points:
        raise ValueError(f'{at}: "points": {n}, but the journal holds {points}')


def loads(text, name="record"):
    first, nl, rest = text.partition("\n")
    head = _journal_header(first) if nl else None
    if head is None:
        return json.loads(text)
    results, end = [], None
    lines = rest.split("\n")
    if lines[-1]:  # no newline after it: cut off as it was written
        print(f"{name}: line {len(lines) + 1}, cut off as it was written, is dropped", file=sys.stderr)
    for k, line in enumerate(lines[:-1], start=2):
        entry = json.loads(line)
        if end is not None:
            raise ValueError(f"{name}: line {k}: an entry after the closing one")
        if isinstance(entry, dict) and list(entry) == ["end"]:
            end, end_line = entry["end"], k
        else:
            results.append(entry)
    if end is not None:
        _check_end(name, end_line, end, len(results))
    doc = dict(head)
    doc["results"] = results
    doc["finished"] = end is not None
    if end is None:
        print(f"{name}: the run did not finish (its journal has no closing entry): "
              f"{len(results)} points recorded", file=sys.stderr)
        doc["interrupted"] = True
        doc["interruption"] = "the run did not finish: its journal has no closing entry"
    else:
        doc["interrupted"] = bool(end.get("interrupted"))
        doc["interruption"] = end.get("interruption") if doc["interrupted"] else None
    return doc


def load(path):
    with open(path, encoding="utf-8") as f:
        return loads(f.read(), path)
