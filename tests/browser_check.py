#!/usr/bin/env python3
"""What tests/browser.sh asks of a report Chromium rendered (standard library only).

  browser_check.py probe PAGE OUT             OUT: PAGE with a script that measures its layout
  browser_check.py dom DUMP KIND RECORD...   the DOM Chromium built of OUT (--dump-dom)
  browser_check.py layout DUMP                the same: no element wider than the page
  browser_check.py netlog LOG                 no request but for file: and data:
  browser_check.py png SHOT                   the screenshot is not blank, the charts are in it

Each check prints what failed and exits 1; 0 when all hold."""
import json
import re
import struct
import sys
import zlib
from html.parser import HTMLParser

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


class Dom(HTMLParser):
    """Every element with its attributes, and the text inside each."""

    def __init__(self):
        super().__init__()
        self.elements = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "", "parent": self.stack[-1] if self.stack else None}
        self.elements.append(e)
        self.stack.append(e)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()["tag"] != tag:
            pass

    def handle_data(self, data):
        for e in self.stack:
            e["text"] += data

    def find(self, tag, **attrs):
        return [e for e in self.elements if e["tag"] == tag and all(e["attrs"].get(k) == v for k, v in attrs.items())]


def numbers(record):
    """The record's GB/s of measured points, as written (json keeps the digits)."""
    with open(record) as f:
        text = json.load(f, parse_float=str)
    return text, [r["gbps"] for r in text["results"] if r["gbps"] is not None]


def dom_common(dom):
    scripts = dom.find("script")
    check(len(scripts) == 1 and scripts[0]["attrs"].get("id") == "gpulab-probe",
          f"{len(scripts) - 1} <script> elements of the page's own")
    for e in dom.elements:
        for k, v in e["attrs"].items():
            check(not k.startswith("on"), f"an event handler attribute {k} on <{e['tag']}>")
            if k in ("src", "href", "xlink:href", "action", "poster", "data") and v:
                check(v.startswith("#"), f"<{e['tag']} {k}={v!r}> points outside the page")
    svgs = dom.find("svg")
    check(svgs, "no <svg>")
    for s in svgs:
        ids = s["attrs"].get("aria-labelledby", "").split()
        titles = [e for e in dom.find("title") if e["attrs"].get("id") in ids]
        descs = [e for e in dom.find("desc") if e["attrs"].get("id") in ids]
        check(titles and titles[0]["text"].strip(), f"svg {s['attrs'].get('id')} has no <title>")
        check(descs and descs[0]["text"].strip(), f"svg {s['attrs'].get('id')} has no <desc>")
    check(dom.find("table"), "no table of the numbers")
    digits(dom)


def significant(number):
    """Its digits from the first that is not 0: 0.0056 has 2, 1962.5 has 5, 16777216 has 8."""
    return len(number.replace(".", "").lstrip("0"))


def digits(dom):
    """Every number in a table's cells at most 5 significant digits; names and parameters (class text) are words."""
    for e in dom.find("td"):
        if "text" in e["attrs"].get("class", "").split():
            continue
        for number in re.findall(r"\d+(?:\.\d+)?", e["text"]):
            check(significant(number) <= 5, f"{number} in a table: {significant(number)} significant digits")


def dom_bars(dom, records):
    record, gbps = numbers(records[0])
    bars = dom.find("g", **{"class": "bar"})
    check(sorted(b["attrs"]["data-gbps"] for b in bars) == sorted(gbps),
          f"bars {[b['attrs'].get('data-gbps') for b in bars]} are not the record's {gbps}")
    for r in record["results"]:
        name = r["exercise"].split(".", 1)[1]
        check(any(e["text"] == name for e in dom.find("text")), f"no label {name}")
        if r["speedup"] is not None and r["status"] == "ok" and r["converged"]:
            check(any(e["text"] == f"{float(r['speedup']):.2f}\u00d7" for e in dom.find("text")),
                  f"no speedup label for {name}")
    peak = record["device"]["peak_gbps"]
    check(dom.find("g", **{"class": "peak", "data-gbps": peak}), f"no peak line at {peak}")
    exact = [e["attrs"].get("title") or "gbps = " + e["text"] for e in dom.find("td")]
    for g in gbps:
        check(f"gbps = {g}" in exact, f"GB/s {g} not in the table, nor in a cell's title")


def dom_sweep(dom, records):
    record, gbps = numbers(records[0])
    names = list(dict.fromkeys(r["exercise"] for r in record["results"]))
    series = [e["attrs"]["data-series"] for e in dom.find("g", **{"class": "series"})]
    check(series == names, f"series {series}, not {names}")
    points = sorted(e["attrs"]["data-gbps"] for e in dom.find("g", **{"class": "point"}))
    check(points == sorted(gbps), "the points are not the record's")
    sizes = [int(r["params"]["n"]) for r in record["results"]]
    first, last = f"2^{min(sizes).bit_length() - 1}", f"2^{max(sizes).bit_length() - 1}"
    ticks = [e["text"] for e in dom.find("text") if e["text"].startswith("2^")]
    check(ticks[:1] == [first] and ticks[-1:] == [last], f"x ticks {ticks}, not {first} to {last}")
    check(any("GB/s" == e["text"] for e in dom.find("text")), "no y label GB/s")
    words = [e for e in dom.find("text") if inside(e, "g", "point")]
    check(not words, f"{len(words)} words over the sweep's points")


def inside(e, tag, cls):
    """Is e within a <tag class=cls>?"""
    p = e["parent"]
    while p is not None and not (p["tag"] == tag and p["attrs"].get("class") == cls):
        p = p["parent"]
    return p is not None


def bar_labels(dom):
    """The x of each label under the comparison's bars (rotated by x_label)."""
    return [float(e["attrs"]["x"]) for e in dom.find("text")
            if "rotate(-40" in e["attrs"].get("transform", "") and inside(e, "section", "comparison")]


def labels_apart(dom):
    """Rotated labels closer than 18 px run into each other: an unreadable band."""
    xs = sorted(bar_labels(dom))
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    check(not gaps or min(gaps) >= 18, f"labels under the bars {min(gaps) if gaps else 0:.1f} px apart")
    check(all(" n=" not in e["text"] for e in dom.find("text") if inside(e, "section", "comparison")),
          "a point's parameters under a bar")


def dom_compare(dom, records):
    ratios = dom.find("g", **{"class": "ratio"})
    check(len(ratios) == 19, f"{len(ratios)} ratios, not 19")
    verdicts = {e["attrs"]["data-exercise"]: e["attrs"]["data-verdict"] for e in ratios}
    check(verdicts.get("reduce.unroll8") == "faster" and verdicts.get("reduce.best") == "slower", f"{verdicts}")
    check(len(bar_labels(dom)) == 19, f"{len(bar_labels(dom))} labels under 19 bars of 19 exercises")
    labels_apart(dom)
    check(not warnings_shown(dom), f"warnings on the page of records timed alike: {warnings_shown(dom)}")


def dom_compare_many(dom, records):
    """A sweep against itself: many points of few exercises, a label per exercise."""
    _, gbps = numbers(records[0])
    ratios = dom.find("g", **{"class": "ratio"})
    check(len(ratios) == len(gbps), f"{len(ratios)} ratios, not {len(gbps)}")
    names = set(e["attrs"]["data-exercise"] for e in ratios)
    check(0 < len(bar_labels(dom)) <= len(names), f"{len(bar_labels(dom))} labels for {len(names)} exercises")
    check(len(dom.find("line", **{"class": "group"})) == len(names) - 1, "no line between the exercises' bars")
    labels_apart(dom)


def warnings_shown(dom):
    """compare's warnings on the page, in the comparison's section."""
    return [e["text"] for e in dom.find("li") if inside(e, "ul", "warnings") and inside(e, "section", "comparison")]


def dom_compare_warned(dom, records):
    """Two records timed differently: the warning compare gives, on the page."""
    said = warnings_shown(dom)
    check(said == ["the records time batches of 1 and 20 runs (--batch): launch gaps count differently"],
          f"warnings on the page: {said}")


def dom_hostile(dom, records):
    texts = " ".join(e["text"] for e in dom.elements)
    check("</script><script>alert(1)</script>" in texts, "the hostile name is not shown as text")
    check("<svg onload=alert(1)>" in texts, "the hostile parameter is not shown as text")
    check(len(dom.find("svg")) == 3, f"{len(dom.find('svg'))} charts, not 3 (one per record and the comparison)")


def journal(path):
    """A record as every reader reads it: a journal's header and points, or a document."""
    with open(path) as f:
        lines = [json.loads(line, parse_float=str) for line in f if line.strip()]
    if len(lines) == 1:
        return lines[0]
    doc = dict(lines[0], results=[x for x in lines[1:] if "exercise" in x])
    return doc


def dom_board(dom, records):
    """Every kernel of each grade record on its board, with its rank or its failure and its line in full; the
    teacher's command; the library and best as lines; nothing of grade's work directory."""
    texts = " ".join(e["text"] for e in dom.elements)
    check(".gpulab-grade-" not in texts and "gpulab try" not in texts, "grade's work directory or try's command shown")
    sections = dom.find("section", **{"class": "record"})
    check(len(sections) == len(records), f"{len(sections)} sections for {len(records)} records")
    for rec, section in zip(map(journal, records), sections):
        rows = [e for e in dom.find("tr") if e["parent"] and "data-kernel" in e["attrs"] and within(e, section)]
        kernels = rec["grade"]["kernels"]
        check([r["attrs"]["data-kernel"] for r in rows] == [k["kernel"] for k in kernels],
              f"board rows {[r['attrs']['data-kernel'] for r in rows]}, not the record's kernels")
        for row, k in zip(rows, kernels):
            cells = [e for e in dom.find("td") if e["parent"] is row]
            said = cells[0]["text"] if k["rank"] is not None else cells[-1]["text"] if cells else ""
            want = str(k["rank"]) if k["rank"] is not None else k["failure"]
            check(said == want, f"{k['kernel']}: the board says {said!r}, the record {want!r}")
        reasons = [e["text"] for e in dom.find("dd") if within(e, section)]
        for k in kernels:
            check(k["reason"] is None or k["reason"] in reasons, f"{k['kernel']}: its reason is not on the page")
        check(any(e["text"] == rec["command"] for e in dom.find("code") if within(e, section)),
              f"the command {rec['command']!r} is not the page's")
        refs = [r["gbps"] for r in rec["results"] if r["exercise"].split(".")[-1] in ("cub", "best")]
        lines = [e["attrs"]["data-gbps"] for e in dom.find("g", **{"class": "ceiling"}) if within(e, section)]
        check(sorted(lines) == sorted(refs), f"lines at {lines}, not the references' {refs}")


def dom_history(dom, records):
    """Several grade records: a row per kernel, and who improved in the last."""
    dom_board(dom, records)
    recs = sorted(map(journal, records), key=lambda r: r["date"])
    files = {k["kernel"].rsplit("/", 1)[-1] for r in recs for k in r["grade"]["kernels"]}
    rows = [e for e in dom.find("tr") if inside(e, "table", "history")][1:]
    check(len(rows) == len(files), f"{len(rows)} rows in the history for {len(files)} kernels")

    def gbps(rec, f):
        k = [k for k in rec["grade"]["kernels"] if k["kernel"].endswith("/" + f)]
        if not k or k[0]["rank"] is None:
            return None
        return float([r for r in rec["results"] if r["params"].get("kernel") == k[0]["kernel"]][0]["gbps"])
    better = sorted(f for f in files if gbps(recs[-1], f) is not None
                    and all(gbps(r, f) is None or gbps(r, f) < gbps(recs[-1], f) for r in recs[:-1]))
    said = [e["text"] for e in dom.find("p", **{"class": "improved"})]
    check(said and sorted(said[0].split(": ", 1)[1].rstrip(".").split(", ")) == better,
          f"improved: {said}, not {better}")


def dom_class(dom, records):
    """gpulab board's page: a section per GPU model, by name; on each, its students ranked by their best share in
    its ranked records (higher first, ties by name), those never measured after, unranked; a dot per share measured."""
    boards = {}
    for rec in map(journal, records):
        device = (rec.get("device") or {}).get("name") or "no GPU"
        test = rec["grade"].get("mode") == "test"
        for k in rec["grade"]["kernels"]:
            name = k["kernel"].rsplit("/", 1)[-1]
            name = name[:-3] if name.endswith(".cu") and len(name) > 3 else name
            shares = boards.setdefault(device, {}).setdefault(name, [])
            if not test and k["rank"] is not None and k.get("ref_share") is not None:
                shares.append(float(k["ref_share"]))
    sections = dom.find("section", **{"class": "gpu-board"})
    check([s["attrs"]["data-device"] for s in sections] == sorted(boards),
          f"boards {[s['attrs'].get('data-device') for s in sections]}, not the records' GPUs {sorted(boards)}")
    for section, device in zip(sections, sorted(boards)):
        students = boards[device]
        ranked = sorted((n for n in students if students[n]), key=lambda n: (-max(students[n]), n))
        want = ranked + sorted(n for n in students if not students[n])
        rows = [e for e in dom.find("tr") if "data-student" in e["attrs"] and within(e, section)]
        check([r["attrs"]["data-student"] for r in rows] == want,
              f"{device}: rows {[r['attrs']['data-student'] for r in rows]}, not {want}")
        for row in rows:
            name = row["attrs"]["data-student"]
            students.setdefault(name, [])
            rank = str(ranked.index(name) + 1) if name in ranked else None
            check(row["attrs"].get("data-rank") == rank, f"{device}: {name} ranked {row['attrs'].get('data-rank')}, not {rank}")
            if rank:
                check(float(row["attrs"]["data-best"]) == max(students[name]), f"{device}: {name}'s best")
            dots = [e for e in dom.find("circle", **{"class": "try"}) if within(e, row)]
            check(sorted(float(d["attrs"]["data-share"]) for d in dots) == sorted(students[name]),
                  f"{device}: {name}'s history has {len(dots)} dots for {len(students[name])} shares")


def within(e, ancestor):
    while e is not None and e is not ancestor:
        e = e["parent"]
    return e is ancestor


def dom_counters(dom, records):
    """The counters table: a header for each counter of the record, in
    order of first appearance, named whole; a row for each point that has them."""
    record = journal(records[0])
    labels, rows = [], [r for r in record["results"] if r.get("metrics")]
    for r in rows:
        labels += [k for k in r["metrics"] if k not in labels]
    heads = [e["text"] for e in dom.find("th") if inside(e, "table", "counters")]
    check(heads[1:] == labels, f"counters headers {heads[1:]} are not the record's {labels}")
    trs = [e for e in dom.find("tr") if inside(e, "table", "counters")]
    check(len(trs) == 1 + len(rows), f"{len(trs) - 1} counters rows for the record's {len(rows)} points")


def dom(path, kind, records):
    parser = Dom()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    dom_common(parser)
    {"bars": dom_bars, "sweep": dom_sweep, "compare": dom_compare, "compare_many": dom_compare_many,
     "compare_warned": dom_compare_warned, "hostile": dom_hostile, "board": dom_board,
     "history": dom_history, "counters": dom_counters, "class": dom_class}[kind](parser, records)


# The page allows no script (its Content-Security-Policy), so the probe is
# a copy without that policy and with this script last: every <details>
# opened, then each element that overflows its own box or the page (one
# drawn in an <svg>: that picture, where the svg would cut it off), into
# a <pre id="layout"> that --dump-dom returns.  A counters header may
# break only between its words (at its <wbr>s): one wrapped a letter a
# line where the column was narrow (issue 52).
PROBE = """<script id="gpulab-probe">
for (const d of document.querySelectorAll('details')) d.open = true;
const page = document.documentElement.clientWidth, bad = [];
for (const e of document.querySelectorAll('*')) {
  const r = e.getBoundingClientRect();
  const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined
    ? '.' + e.className : '') + (e.tagName === 'text' ? ' "' + e.textContent.slice(0, 40) + '"' : '');
  if (e.ownerSVGElement) {  // drawn inside a picture: within it, none cut off at its edges
    let top = e.ownerSVGElement;
    while (top.ownerSVGElement) top = top.ownerSVGElement;
    const s = top.getBoundingClientRect();
    if (r.width > 0 && (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1))
      bad.push(name + ': drawn past its picture, ' + Math.round(r.left - s.left) + ' to ' + Math.round(r.right - s.left)
               + ' px of ' + Math.round(s.width));
  } else if (e.scrollWidth > e.clientWidth && e.clientWidth > 0)
    bad.push(name + ': scrollWidth ' + e.scrollWidth + ' > clientWidth ' + e.clientWidth);
  if (r.width > 0 && (r.right > page + 0.5 || r.left < -0.5))
    bad.push(name + ': from ' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px, past the page of ' + page);
}
for (const th of document.querySelectorAll('table.counters th')) {
  const tops = new Set(), range = document.createRange();
  for (const t of th.childNodes) {
    if (t.nodeType !== Node.TEXT_NODE) continue;
    range.selectNodeContents(t);
    for (const r of range.getClientRects()) tops.add(Math.round(r.top));
  }
  const words = th.querySelectorAll('wbr').length + 1;
  if (tops.size > words)
    bad.push('th "' + th.textContent.slice(0, 40) + '": ' + tops.size + ' lines for its ' + words + ' words');
}
const out = document.createElement('pre');
out.id = 'layout';
out.textContent = JSON.stringify({page: page, scroll: document.documentElement.scrollWidth, bad: bad});
document.body.appendChild(out);
</script>"""


def probe(page, out):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)
    check("</body>" in text, "no </body> to put the probe before")
    with open(out, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))


def layout(path):
    parser = Dom()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    found = parser.find("pre", id="layout")
    check(found, "the probe did not run")
    if not found:
        return
    said = json.loads(found[0]["text"])
    check(said["page"] == 1280, f"the page is {said['page']} px wide, not 1280")
    check(said["scroll"] <= said["page"], f"the page scrolls sideways: {said['scroll']} px in {said['page']}")
    for b in said["bad"][:10]:
        check(False, b)
    check(len(said["bad"]) <= 10, f"and {len(said['bad']) - 10} more")


def netlog(path):
    with open(path) as f:
        text = f.read()
    try:
        log = json.loads(text)
    except ValueError:  # Chromium may leave the log unterminated when it exits
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    # the browser's own traffic (updates, sign-in) has no origin for its
    # initiator; what a page asks for has the page's (a file's is "null")
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = set()
    for e in log.get("events", []):
        p = e.get("params") or {}
        if e.get("type") == start and "url" in p and p.get("initiator") != "not an origin":
            urls.add(p["url"])
    bad = [u for u in urls if not (u.startswith("file:") or u.startswith("data:"))]
    check(not bad, f"requests outside the page: {bad}")


def png_pixels(path):
    """RGB(A) rows of an 8-bit, non-interlaced PNG, which is what Chromium writes."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and not interlace, "an 8-bit RGB(A) PNG"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def png(path):
    w, h, bpp, rows = png_pixels(path)
    ink, blue_x, blue_y = 0, [], []
    for y in range(0, h, 2):
        row = rows[y]
        for x in range(0, w, 2):
            r, g, b = row[x * bpp:x * bpp + 3]
            if r < 235 or g < 235 or b < 235:
                ink += 1
            if abs(r - 0x00) < 24 and abs(g - 0x72) < 24 and abs(b - 0xB2) < 24:  # the bars' and lines' blue
                blue_x.append(x)
                blue_y.append(y)
    share = ink / ((w // 2) * (h // 2))
    check(share > 0.03, f"the screenshot is blank: {100 * share:.1f}% ink")
    check(len(blue_x) > 200, "no chart colour in the screenshot")
    if blue_x:
        check(min(blue_x) > 0 and max(blue_x) < w - 4 and max(blue_y) < h - 4,
              f"the chart runs off the viewport: x {min(blue_x)}..{max(blue_x)}, y ..{max(blue_y)} of {w}x{h}")
        check(max(blue_x) - min(blue_x) > w / 3, "the chart is drawn too small to read")
    edge = sum(1 for y in range(h) for x in (w - 2, w - 1)
               if any(v < 235 for v in rows[y][x * bpp:x * bpp + 3]))
    check(edge == 0, "something is drawn at the right edge: the page is wider than 1280 px")


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "dom":
        dom(args[0], args[1], args[2:])
    elif what == "probe":
        probe(args[0], args[1])
    elif what == "layout":
        layout(args[0])
    elif what == "netlog":
        netlog(args[0])
    elif what == "png":
        png(args[0])
    for f in failures:
        print(f"{what} {args[0]}: {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
